import { fail, html, type Locale, ok, type Result } from "@tessera/core";
import { isAllowedOrigin } from "./allowed-origins.js";
import { forbidden } from "./error-envelope.js";
import { htmlPage } from "./html-responses.js";
import { httpMessages } from "./http-messages.js";
import { plainLayout } from "./page-layout.js";

/** Why a request passed the cross-site check; useful in logs and tests. */
export type CrossSitePass =
  | "safe-method"
  | "allowed-origin"
  | "same-origin-fetch"
  | "not-from-a-browser"
  | "origin-matches-host";

/**
 * Why a request was refused: a browser said it is cross-site (`Sec-Fetch-Site`), or an older
 * browser sent an `Origin` whose host is not this one (or `Origin: null`).
 */
export type CrossSiteRefusal = "cross-site-fetch" | "origin-mismatch";

/** Options of {@link checkCrossSiteRequest}. */
export interface CrossSiteOptions {
  /** Browser origins allowed cross-site, as {@link parseAllowedOrigins} reads them. */
  readonly allowedOrigins?: readonly string[] | undefined;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function isWebSocketUpgrade(headers: Headers): boolean {
  return headers.get("upgrade")?.trim().toLowerCase() === "websocket";
}

/**
 * The host the request was sent to: the `Host` header, or the URL's host where the runtime
 * keeps `Host` out of `Request.headers` (it is the same value the server routed on).
 */
function requestHost(request: Request): string | undefined {
  const header = request.headers.get("host")?.trim();
  if (header) return header.toLowerCase();
  try {
    return new URL(request.url).host || undefined;
  } catch {
    return undefined;
  }
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Go 1.25 `CrossOriginProtection` rules: safe methods pass (a WebSocket upgrade does not count
 * as safe); an allowed `Origin` passes; `Sec-Fetch-Site: same-origin` or `none` passes and any
 * other value is refused; without it, a request with no `Origin` passes (not from a browser) and
 * otherwise the `Origin`'s host must equal the request's host. Never throws.
 */
export function checkCrossSiteRequest(
  request: Request,
  options: CrossSiteOptions = {},
): Result<CrossSitePass, CrossSiteRefusal> {
  const headers = request.headers;
  if (SAFE_METHODS.has(request.method.toUpperCase()) && !isWebSocketUpgrade(headers)) {
    return ok("safe-method");
  }
  const origin = headers.get("origin");
  if (isAllowedOrigin(origin, options.allowedOrigins ?? [])) return ok("allowed-origin");
  const fetchSite = headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (fetchSite) {
    return fetchSite === "same-origin" || fetchSite === "none"
      ? ok("same-origin-fetch")
      : fail("cross-site-fetch");
  }
  if (origin === null || origin.trim() === "") return ok("not-from-a-browser");
  const host = requestHost(request);
  if (host === undefined) return ok("not-from-a-browser");
  return originHost(origin.trim()) === host ? ok("origin-matches-host") : fail("origin-mismatch");
}

/** The 403 for a refused cross-site request, in the JSON error envelope, in `locale`. */
export function crossSiteRefusal(locale?: Locale): Response {
  const message = httpMessages.text(locale, "http.cross_site_refused");
  return forbidden(message, "cross_site_request", locale);
}

/**
 * The 403 for a refused cross-site request to a page: a standalone document (the refusal comes
 * before the session is opened, so there is no user to render the site's layout for), as the
 * JSON envelope would show a person raw JSON.
 */
export function crossSiteRefusalPage(locale?: Locale): Response {
  const title = httpMessages.text(locale, "http.request_refused");
  const message = httpMessages.text(locale, "http.cross_site_refused");
  const page = plainLayout({
    title,
    mainHtml: html`<h1>${title}</h1>\n<p>${message}</p>`.toString(),
    context: {
      signedInEmail: undefined,
      flashes: [],
      cspNonce: undefined,
      ...(locale ? { locale } : {}),
    },
  });
  return htmlPage(403, page);
}
