import { orderRoutes, type Route } from "@tessera/http";
import type { MaybeSessionContext } from "@tessera/session";
import type { SessionVariables } from "@tessera/session/hono";
import type { Env, Hono } from "hono";
import type { TesseraVariables } from "./variables.js";

/**
 * Registers Tessera routes on a Hono app, static paths before parameter paths (Hono takes the
 * first match). Each gets its path parameters, the client address of {@link clientAddress}
 * (`unknown` without it) and the session of `cookieSession` (`@tessera/session/hono`) when
 * that runs.
 *
 * @example
 * ```ts
 * import { serve } from "@hono/node-server";
 * import { mount } from "@tessera/hono";
 * import type { Route } from "@tessera/http";
 * import { Hono } from "hono";
 *
 * const hello: Route = { method: "GET", path: "/hello", handle: async () => new Response("Hello") };
 * const app = mount(new Hono(), [hello]);
 * serve({ fetch: app.fetch, port: 3000 });
 * ```
 */
export function mount<E extends Env>(
  app: Hono<E>,
  routes: readonly Route<MaybeSessionContext>[],
): Hono<E> {
  for (const route of orderRoutes(routes)) {
    app.on(route.method, route.path, (context) => {
      const variables = context.var as Partial<TesseraVariables & SessionVariables>;
      return route.handle(context.req.raw, {
        params: context.req.param() as Record<string, string>,
        clientAddress: variables.clientAddress ?? "unknown",
        ...(variables.session ? { session: variables.session } : {}),
      });
    });
  }
  return app;
}
