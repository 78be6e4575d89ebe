import {
  answerCorsPreflight,
  checkCrossSiteRequest,
  crossSiteRefusal,
  isHttpsRequest,
  withCorsHeaders,
  withSecurityHeaders,
} from "@tessera/http";
import type { Context, MiddlewareHandler } from "hono";

/** Replaces the response only when adding headers had to copy it (an immutable response). */
function finish(context: Context, finished: Response): void {
  // Assigning `context.res` makes Hono copy the response; skip it when headers went in place.
  if (finished !== context.res) context.res = finished;
}

/**
 * Adds `X-Content-Type-Options`, `X-Frame-Options` and `Referrer-Policy` to every response that
 * does not set them itself, and HSTS when `https(request)` says the browser came over HTTPS
 * (default: the request URL is `https:`; behind a TLS proxy, read its `X-Forwarded-Proto`).
 */
export function securityHeaders(
  options: { readonly https?: (request: Request) => boolean } = {},
): MiddlewareHandler {
  const https = options.https ?? isHttpsRequest;
  return async (context, next) => {
    await next();
    finish(context, withSecurityHeaders(context.res, { https: https(context.req.raw) }));
  };
}

/**
 * Refuses cross-site state-changing requests with a 403 (a browser's `Sec-Fetch-Site`, or an
 * `Origin` that is not this host), answers CORS preflights from `allowedOrigins`, and adds CORS
 * headers for them. The routes of Tessera's packages check this themselves too; this covers
 * the app's own routes.
 */
export function crossSiteProtection(
  options: { readonly allowedOrigins?: readonly string[] } = {},
): MiddlewareHandler {
  const cors = { allowedOrigins: options.allowedOrigins ?? [] };
  return async (context, next) => {
    const request = context.req.raw;
    const preflight = answerCorsPreflight(request, cors);
    if (preflight) return preflight;
    if (!checkCrossSiteRequest(request, cors).ok) return crossSiteRefusal();
    await next();
    finish(context, withCorsHeaders(request, context.res, cors));
  };
}
