import {
  answerCorsPreflight,
  checkCrossSiteRequest,
  crossSiteRefusal,
  isHttpsRequest,
  newCspNonce,
  type PageHeaderOptions,
  STRICT_TRANSPORT_SECURITY,
  withCorsHeaders,
  withPageHeaders,
} from "@tessera/http";
import type { Context, MiddlewareHandler } from "hono";
import type { TesseraEnv } from "./variables.js";

/** Replaces the response only when adding headers had to copy it (an immutable response). */
function finish(context: Context, finished: Response): void {
  // Assigning `context.res` makes Hono copy the response; skip it when headers went in place.
  if (finished !== context.res) context.res = finished;
}

/** Options of {@link securityHeaders}. */
export interface SecurityHeadersOptions {
  /**
   * Whether the browser came over HTTPS, for HSTS (default: the request URL is `https:`; behind
   * a TLS proxy, read its `X-Forwarded-Proto`).
   */
  readonly https?: ((request: Request) => boolean) | undefined;
  /**
   * How the pages' headers differ from `withPageHeaders`' defaults; give Tessera's HTML route
   * groups the same (`pageHeaders`), since they set their pages' headers themselves.
   */
  readonly pages?: PageHeaderOptions | undefined;
}

/**
 * The nonce of this request's page, for its `<script nonce="…">` tags: made on the first call,
 * the same for the rest of the request. {@link securityHeaders} puts it in the page's
 * Content-Security-Policy; a request that never asks makes none.
 */
export function cspNonce<E extends TesseraEnv>(context: Context<E>): string {
  // Read and set through the environment this package declares, whatever else E adds.
  const own = context as unknown as Context<TesseraEnv>;
  const made = own.get("cspNonce") as string | undefined;
  if (made !== undefined) return made;
  const nonce = newCspNonce();
  own.set("cspNonce", nonce);
  return nonce;
}

/**
 * The security headers of every answer that does not set them itself: `X-Content-Type-Options`,
 * `X-Frame-Options` and `Referrer-Policy` on all; on an HTML page also a Content-Security-Policy
 * with the page's {@link cspNonce}, `Permissions-Policy` and `Cross-Origin-Opener-Policy`
 * (`withPageHeaders` of `@tessera/http`); HSTS when `https(request)` says the browser came over
 * HTTPS. Tessera's HTML routes set their own, so for them this only checks they are there; an
 * answer made with them (`jsonAnswer`, `markSecured`) is not read at all over HTTP.
 */
export function securityHeaders(options: SecurityHeadersOptions = {}): MiddlewareHandler {
  const https = options.https ?? isHttpsRequest;
  const pages = options.pages ?? {};
  return async (context, next) => {
    await next();
    const secured = withPageHeaders(context.res, () => cspNonce(context), pages);
    if (https(context.req.raw) && !secured.headers.has("Strict-Transport-Security")) {
      secured.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    }
    finish(context, secured);
  };
}

/**
 * Refuses cross-site state-changing requests with a 403 (a browser's `Sec-Fetch-Site`, or an
 * `Origin` that is not this host), answers CORS preflights from `allowedOrigins`, and adds CORS
 * headers for them. Tessera's page groups check this themselves too (`pageSafety`); their
 * JSON routes do not, so this covers those and the app's own routes.
 */
export function crossSiteProtection(
  options: { readonly allowedOrigins?: readonly string[] | undefined } = {},
): MiddlewareHandler {
  const cors = { allowedOrigins: options.allowedOrigins ?? [] };
  // Without allowed origins no answer gets CORS headers, so nothing is left to do after the
  // route: a request let through then hands Hono the rest of the chain's own promise, with no
  // promise of this step wrapped around it (it runs on every API request).
  const addsCorsHeaders = cors.allowedOrigins.length > 0;
  return (context, next) => {
    const request = context.req.raw;
    const preflight = answerCorsPreflight(request, cors);
    if (preflight) return Promise.resolve(preflight);
    if (!checkCrossSiteRequest(request, cors).ok) return Promise.resolve(crossSiteRefusal());
    if (!addsCorsHeaders) return next();
    return next().then(() => finish(context, withCorsHeaders(request, context.res, cors)));
  };
}
