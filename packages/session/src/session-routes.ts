import type { RouteContext, RouteMiddleware } from "@tessera/http";
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
  readonly session?: Session | undefined;
}

/**
 * A route middleware opening the cookie session before the handler (`context.session`) and
 * writing it back onto the response after. When the context already has a session (a
 * framework middleware such as `cookieSession` of `@tessera/session/hono` opened it), that one is used
 * and left for that middleware to commit, so a request reads and writes its cookie once. What
 * else the context holds (`C`) reaches the handler as it is.
 */
export function openSession<C extends RouteContext = RouteContext>(
  cookies: SessionCookies,
): RouteMiddleware<C & MaybeSessionContext, C & SessionRouteContext> {
  return (next) => async (request, context) => {
    if (context.session) return next(request, { ...context, session: context.session });
    const session = await cookies.read(request);
    const response = await next(request, { ...context, session });
    return cookies.commit(session, response);
  };
}
