import {
  answerCorsPreflight,
  checkCrossSiteRequest,
  crossSiteRefusal,
  withCorsHeaders,
  withSecurityHeaders,
} from "@tessera/http";
import type { MiddlewareHandler } from "hono";

/**
 * Hono middleware around @tessera/http: answers CORS preflights of `ALLOWED_ORIGINS`, refuses
 * cross-site unsafe requests (docs/security.md), and adds the security headers (and CORS
 * headers for listed origins) to every response that does not set them itself.
 */
export function securityMiddleware(options: {
  readonly allowedOrigins: readonly string[];
  /** Whether the browser reached the app over HTTPS (behind a TLS proxy too): then HSTS. */
  readonly overHttps: (request: Request) => boolean;
}): MiddlewareHandler {
  const cors = { allowedOrigins: options.allowedOrigins };
  return async (context, next) => {
    const request = context.req.raw;
    const https = options.overHttps(request);
    const finish = (response: Response) =>
      withSecurityHeaders(withCorsHeaders(request, response, cors), { https });

    const preflight = answerCorsPreflight(request, cors);
    if (preflight) {
      context.res = finish(preflight);
      return;
    }
    if (!checkCrossSiteRequest(request, cors).ok) {
      context.res = finish(crossSiteRefusal());
      return;
    }
    await next();
    // Headers are added in place when the response allows it; assigning `context.res` anyway
    // would make Hono copy the response (and materialize a full undici Response) for nothing.
    const finished = finish(context.res);
    if (finished !== context.res) context.res = finished;
  };
}
