import {
  composeMiddleware,
  crossSiteCheck,
  crossSiteRefusalPage,
  type PageHeaderOptions,
  type PageRouteContext,
  type RouteMiddleware,
} from "@tessera/http";
import { pageHeaders } from "./page-security.js";
import type { SessionCookies } from "./session-cookies.js";
import {
  type MaybeSessionContext,
  openSession,
  type SessionRouteContext,
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
  readonly allowedOrigins?: readonly string[] | undefined;
  /**
   * How the pages' security headers differ from `withPageHeaders`' defaults (a policy extended
   * or replaced, other headers changed). Give the app's own pages the same options.
   */
  readonly pageHeaders?: PageHeaderOptions | undefined;
}

/** What a handler of an HTML route group gets: the session and its page's CSP nonce. */
export interface HtmlRouteContext extends SessionRouteContext, PageRouteContext {}

/**
 * The middleware of every HTML route group, in this order: the page's security headers (a
 * Content-Security-Policy with a fresh nonce, handed to the handler as `context.cspNonce`; see
 * {@link pageHeaders}), then a state-changing route's refusal of a cross-site request with a
 * 403 page (before the cookie is opened), then the cookie session ({@link openSession}).
 * Mounted in any framework with no middleware at all, the pages keep their headers and their
 * session, and refuse login CSRF.
 *
 * @example
 * ```ts
 * import { type Route, withMiddleware } from "@tessera/http";
 * import { createSessionCookies, type HtmlRouteContext, pageSafety } from "@tessera/session";
 *
 * const sessions = createSessionCookies({
 *   appName: "tessera",
 *   secrets: { current: process.env.SECRET_KEY_BASE! },
 * });
 * const pages: Route<HtmlRouteContext>[] = [
 *   { method: "GET", path: "/hello", handle: async (_request, { session }) => new Response(String(session.userId)) },
 * ];
 * const mounted = withMiddleware(pages, pageSafety({ sessions }));
 * ```
 */
export function pageSafety(
  safety: HtmlRouteSafety,
): RouteMiddleware<MaybeSessionContext, HtmlRouteContext> {
  return composeMiddleware(
    pageHeaders<MaybeSessionContext>(safety.pageHeaders ?? {}),
    crossSiteCheck({ allowedOrigins: safety.allowedOrigins ?? [], refusal: crossSiteRefusalPage }),
    openSession<PageRouteContext>(safety.sessions),
  );
}
