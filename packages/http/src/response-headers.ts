/**
 * Applies `edit` to a response's headers in place when they are mutable, else to a copy of the
 * response (the body is passed on, not read). Responses from `fetch` or `Response.redirect`
 * have immutable headers; `edit` must therefore be safe to run twice.
 */
export function editResponseHeaders(
  response: Response,
  edit: (headers: Headers) => void,
): Response {
  try {
    edit(response.headers);
    return response;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  const copy = new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(response.headers),
  });
  edit(copy.headers);
  return copy;
}
