import { orderRoutes, type Route } from "@tessera/http";
import type { MaybeSessionContext } from "@tessera/session";
import type { AppHono } from "./accounts.js";
import { requestContext } from "./request-context.js";

/**
 * Mounts package routes on the app's Hono router, with the client address (`TRUST_PROXY`
 * aware) and the cookie session the session middleware opened (and will commit). Static paths
 * are registered before parameter paths (Hono takes the first match).
 */
export function mountRoutes(
  app: AppHono,
  routes: readonly Route<MaybeSessionContext>[],
  trustProxy: number,
): void {
  for (const route of orderRoutes(routes)) {
    app.on(route.method, route.path, (c) =>
      route.handle(c.req.raw, {
        ...requestContext(c, trustProxy),
        params: c.req.param(),
        session: c.get("session"),
      }),
    );
  }
}
