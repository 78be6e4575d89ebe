import { orderRoutes, type Route } from "@tessera/http";
import type { MaybeSessionContext } from "@tessera/session";
import type { SessionVariables } from "@tessera/session/hono";
import type { Context, Env, Hono } from "hono";
import type { TesseraVariables } from "./variables.js";

type MountedVariables = TesseraVariables & SessionVariables;

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
      // One `get` per variable: `context.var` copies every variable into a new object each time.
      const own = context as unknown as Context<{ Variables: Partial<MountedVariables> }>;
      const params = context.req.param() as Record<string, string>;
      const clientAddress = own.get("clientAddress") ?? "unknown";
      const session = own.get("session");
      const routeContext = session ? { params, clientAddress, session } : { params, clientAddress };
      return route.handle(context.req.raw, routeContext);
    });
  }
  return app;
}
