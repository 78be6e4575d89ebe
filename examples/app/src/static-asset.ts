import { markSecured, securedHeaders } from "@tessera/http";

/**
 * The answer of one of the app's static files (script, stylesheet): cached for an hour, with
 * the security headers in the response from the start, so the header middleware leaves it
 * unread (`markSecured`). `type` must not be HTML: a page needs its own policy.
 */
export function staticAssetAnswer(body: string, type: string): Response {
  const headers = securedHeaders({ "Content-Type": type, "Cache-Control": "public, max-age=3600" });
  return markSecured(new Response(body, { status: 200, headers }));
}
