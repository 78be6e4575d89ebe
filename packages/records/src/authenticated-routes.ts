import type { Authenticate, Route, RouteContext } from "@tessera/http";
import type { RecordContext, RecordRoute } from "./record-options.js";

/**
 * The routes as they are handed out: each one asks `authenticate` who the request acts for,
 * answers its refusal (a 401, a redirect to sign-in) without touching a store, and otherwise
 * runs the record handler as that owner.
 */
export function authenticatedRoutes<C extends RouteContext, A, O extends RecordContext>(
  routes: readonly RecordRoute<O>[],
  authenticate: Authenticate<A, C>,
  ownerContext: (authenticated: A, context: C) => O,
): Route<C>[] {
  return routes.map((route) => ({
    method: route.method,
    path: route.path,
    handle: async (request, context) => {
      const authenticated = await authenticate(request, context);
      if (!authenticated.ok) return authenticated.response;
      return route.handle(request, ownerContext(authenticated.value, context), context.params);
    },
  }));
}
