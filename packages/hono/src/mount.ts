import { orderRoutes, type Route, type RouteContext } from "@tessera/http";
import type { Context, Env, Hono } from "hono";
import type { TesseraVariables } from "./variables.js";

/**
 * The context {@link mount} gives each route of a `Hono<E>`: the path parameters, the client
 * address, and the `session` variable when `E` declares one (`cookieSession` of
 * `@tessera/session/hono` sets it, typed by its `SessionEnv`), of the type `E` gives it. It is
 * optional: a request the middleware did not run for has none.
 */
export type MountedRouteContext<E extends Env> = RouteContext &
  (E extends { Variables: { session: infer S } } ? { readonly session?: S | undefined } : unknown);

/** What `mount` reads off the Hono context; `session` is whatever the app's middleware put. */
type MountedVariables = Partial<TesseraVariables> & { session?: unknown };

/**
 * Registers Tessera routes on a Hono app, static paths before parameter paths (Hono takes the
 * first match). Each gets its path parameters, the client address of {@link clientAddress}
 * (`unknown` without it) and, on an app typed with a `session` variable, the session its
 * middleware put there ({@link MountedRouteContext}): on `Hono<TesseraEnv & SessionEnv>` with
 * `cookieSession` of `@tessera/session/hono`, routes of `Route<MaybeSessionContext>` use that
 * session instead of opening the cookie again.
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
  routes: readonly Route<NoInfer<MountedRouteContext<E>>>[],
): Hono<E> {
  for (const route of orderRoutes(routes)) {
    app.on(route.method, route.path, (context) => {
      // One `get` per variable: `context.var` copies every variable into a new object each time.
      const own = context as unknown as Context<{ Variables: MountedVariables }>;
      const params = context.req.param() as Record<string, string>;
      const clientAddress = own.get("clientAddress") ?? "unknown";
      const session = own.get("session");
      const routeContext = session ? { params, clientAddress, session } : { params, clientAddress };
      return route.handle(context.req.raw, routeContext as MountedRouteContext<E>);
    });
  }
  return app;
}
