import type { Authenticate, RouteContext } from "./route.js";
import type { RouteMiddleware } from "./route-middleware.js";

/**
 * A middleware asking `authenticate` who each request acts for: its refusal (a 401 with its
 * challenge, a redirect to sign-in) is the answer and the handler never runs; otherwise what it
 * returned is spread into the handler's context (`bearerAuthentication` gives `{ user }`, so
 * the handler reads `context.user`). The value must be an object of context keys.
 *
 * @example
 * ```ts
 * import { type Authenticate, authenticated, type Route, type RouteContext, withMiddleware } from "@tessera/http";
 *
 * type User = { readonly id: number };
 * declare const authenticate: Authenticate<{ readonly user: User }>;
 * const me: Route<RouteContext & { readonly user: User }> = {
 *   method: "GET",
 *   path: "/api/me",
 *   handle: async (_request, { user }) => Response.json({ id: user.id }),
 * };
 * const routes: Route[] = withMiddleware([me], authenticated(authenticate));
 * ```
 */
export function authenticated<A extends object, C extends RouteContext = RouteContext>(
  authenticate: Authenticate<A, C>,
): RouteMiddleware<C, C & A> {
  return (next) => async (request, context) => {
    const who = await authenticate(request, context);
    if (!who.ok) return who.response;
    return next(request, { ...context, ...who.value });
  };
}
