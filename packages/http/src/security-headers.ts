import { isHttpsRequest } from "./https-request.js";
import { editResponseHeaders } from "./response-headers.js";
import type { PassThroughMiddleware } from "./route-middleware.js";
import { isSecured } from "./secured-responses.js";

/** The headers every response carries unless its handler set them (docs/security.md). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "SAMEORIGIN",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/**
 * HSTS value sent on HTTPS: one year, without `includeSubDomains` or `preload`, which commit
 * every other host of the domain too and are the operator's decision.
 */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

/**
 * Adds {@link SECURITY_HEADERS}, and `Strict-Transport-Security` when `https`, to a response,
 * leaving any the handler already set (a token page's `Referrer-Policy: no-referrer` stays).
 * An answer made with them (`jsonAnswer`, `markSecured`) is left unread unless it needs HSTS.
 * Changes the response in place when its headers are mutable, else returns a copy.
 */
export function withSecurityHeaders(
  response: Response,
  options: { readonly https: boolean },
): Response {
  if (isSecured(response) && !options.https) return response;
  return editResponseHeaders(response, (headers) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!headers.has(name)) headers.set(name, value);
    }
    if (options.https && !headers.has("Strict-Transport-Security")) {
      headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    }
  });
}

/**
 * A middleware adding {@link SECURITY_HEADERS} to each answer of the routes it wraps (and HSTS
 * when `https(request)` says the browser came over HTTPS), as {@link withSecurityHeaders} does
 * for one response: routes mounted without a framework's header middleware keep them.
 */
export function routeSecurityHeaders(
  options: { readonly https?: ((request: Request) => boolean) | undefined } = {},
): PassThroughMiddleware {
  const https = options.https ?? isHttpsRequest;
  return (next) => async (request, context) =>
    withSecurityHeaders(await next(request, context), { https: https(request) });
}
