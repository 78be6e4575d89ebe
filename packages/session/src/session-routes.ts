import type { Route, RouteContext } from "@tessera/http";
import type { Session } from "./session.js";
import type { SessionCookies } from "./session-cookies.js";

/** The context of a route that reads or changes the cookie session. */
export interface SessionRouteContext extends RouteContext {
  readonly session: Session;
}

/**
 * A context that may already carry the session: an adapter's cookie-session middleware puts it
 * there (and commits it), so routes mounted behind it do not open the cookie twice.
 */
export interface MaybeSessionContext extends RouteContext {
  readonly session?: Session;
}

/**
 * The routes, each opening the cookie session before its handler and writing it back onto the
 * response after. When the context already has a session (an adapter's middleware opened it),
 * that one is used and left for the middleware to commit. HTML route groups apply this
 * themselves, so they work in any framework with no session middleware at all. What else the
 * context holds (`C`) reaches the handler as it is.
 */
export function withCookieSession<C extends RouteContext = RouteContext>(
  cookies: SessionCookies,
  routes: readonly Route<C & SessionRouteContext>[],
): Route<C & MaybeSessionContext>[] {
  return routes.map((route) => ({
    ...route,
    handle: async (request, context) => {
      if (context.session) return route.handle(request, { ...context, session: context.session });
      const session = await cookies.read(request);
      const response = await route.handle(request, { ...context, session });
      return cookies.commit(session, response);
    },
  }));
}
