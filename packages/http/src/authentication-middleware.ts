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
 * import { authenticated, type Authenticate, withMiddleware } from "@tessera/http";
 *
 * declare const authenticate: Authenticate<{ user: { id: number } }>;
 * const routes = withMiddleware(
 *   [{ method: "GET", path: "/api/me", handle: async (_request, { user }) => Response.json(user) }],
 *   authenticated(authenticate),
 * );
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
