import type { Locale } from "@tessera/core";

/**
 * French with an empty catalog: a request's locale as `localeNegotiation` would choose it, for
 * tests of an answer's language headers rather than of its text.
 */
export const FRENCH: Locale = { tag: "fr", catalog: {} };

/** An answer's status, `Content-Language` and `Vary`, to compare in one assertion. */
export function languageOf(
  response: Pick<Response, "status" | "headers">,
): [number, string | null, string | null] {
  return [response.status, response.headers.get("content-language"), response.headers.get("vary")];
}

/** What {@link languageOf} gives for an answer in {@link FRENCH} with `status`. */
export function inFrench(status: number): [number, string, string] {
  return [status, "fr", "Accept-Language"];
}
