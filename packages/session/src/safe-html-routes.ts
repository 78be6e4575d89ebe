import {
  crossSiteCheck,
  crossSiteRefusalPage,
  type PageHeaderOptions,
  type PageRouteContext,
  type Route,
  withMiddleware,
} from "@tessera/http";
import { withPageSecurity } from "./page-security.js";
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
   * other cross-site `POST` is refused with a 403 page before the handler runs (login CSRF
   * included).
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * How the pages' security headers differ from `withPageHeaders`' defaults (a policy extended
   * or replaced, other headers changed). Give the app's own pages the same options.
   */
  readonly pageHeaders?: PageHeaderOptions;
}

/** What a handler of an HTML route group gets: the session and its page's CSP nonce. */
export interface HtmlRouteContext extends SessionRouteContext, PageRouteContext {}

/**
 * An HTML route group as packages hand it out: each route answers with its security headers (a
 * Content-Security-Policy with a fresh nonce, handed to the handler as `context.cspNonce`, on
 * its pages; see `withPageSecurity`), opens and commits the cookie session itself, and each
 * state-changing route refuses a cross-site request before it runs (and before the cookie is
 * opened). Mounted in any framework with no middleware at all, the pages keep their headers
 * and their session, and refuse login CSRF.
 */
export function safeHtmlRoutes(
  safety: HtmlRouteSafety,
  routes: readonly Route<HtmlRouteContext>[],
): Route<MaybeSessionContext>[] {
  const withSession = withCookieSession<PageRouteContext>(safety.sessions, routes);
  const checked = withMiddleware(
    withSession,
    crossSiteCheck({ allowedOrigins: safety.allowedOrigins ?? [], refusal: crossSiteRefusalPage }),
  );
  return withPageSecurity<MaybeSessionContext>(checked, safety.pageHeaders ?? {});
}
