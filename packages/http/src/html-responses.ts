/** An HTML page response. */
export function htmlPage(status: number, html: string, headers: HeadersInit = {}): Response {
  const response = new Response(html, { status, headers });
  response.headers.set("Content-Type", "text/html; charset=utf-8");
  return response;
}

/** The redirect every route uses: 303 See Other. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}

/** Pages whose path carries a token: the token must not leak to other sites through Referer. */
export const NO_REFERRER = { "Referrer-Policy": "no-referrer" } as const;
