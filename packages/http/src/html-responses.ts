import { markSecured, securedHeaders } from "./secured-responses.js";

/** An HTML page response. */
export function htmlPage(status: number, html: string, headers: HeadersInit = {}): Response {
  const response = new Response(html, { status, headers });
  response.headers.set("Content-Type", "text/html; charset=utf-8");
  return response;
}

/** The redirect every route uses: 303 See Other, with the security headers from the start. */
export function seeOther(location: string): Response {
  return markSecured(
    new Response(null, { status: 303, headers: securedHeaders({ Location: location }) }),
  );
}

/** Pages whose path carries a token: the token must not leak to other sites through Referer. */
export const NO_REFERRER = { "Referrer-Policy": "no-referrer" } as const;
/**
 * Answers that show a secret once (an API key, backup codes, a TOTP setup, a webhook signing
 * secret): no cache, the browser's back-forward one included, may keep a copy to show again.
 */
export const NO_STORE = { "Cache-Control": "no-store" } as const;
