import { type Route, withCrossSiteCheck } from "@tessera/http";
import type { SessionCookies } from "./session-cookies.js";
import {
  type MaybeSessionContext,
  type SessionRouteContext,
  withCookieSession,
} from "./session-routes.js";

/** What every HTML route group needs to be safe mounted anywhere. */
export interface HtmlRouteSafety {
  /**
   * The cookie session: each route opens it from the request and writes it back onto the
   * response (or uses the one a framework middleware opened). With `trackedSessions` in it,
   * every sign-in records the device and logout ends it.
   */
  readonly sessions: SessionCookies;
  /**
   * `ALLOWED_ORIGINS`, parsed: browser origins whose cross-site form posts are accepted. Every
   * other cross-site `POST` is refused with a 403 before the handler runs (login CSRF included).
   */
  readonly allowedOrigins?: readonly string[];
}

/**
 * An HTML route group as packages hand it out: each route opens and commits the cookie session
 * itself, and each state-changing route refuses a cross-site request before it runs (and
 * before the cookie is opened). Mounted in any framework with no middleware at all, the pages
 * keep their session and refuse login CSRF.
 */
export function safeHtmlRoutes(
  safety: HtmlRouteSafety,
  routes: readonly Route<SessionRouteContext>[],
): Route<MaybeSessionContext>[] {
  return withCrossSiteCheck(withCookieSession(safety.sessions, routes), {
    allowedOrigins: safety.allowedOrigins ?? [],
  });
}
