// The rule for an answer's language headers, in one place: jsonAnswer writes them into a new
// answer's init, withLanguageHeaders adds them to an answer made without them.

const NAMES_ACCEPT_LANGUAGE = /(^|,)\s*accept-language\s*(,|$)/i;

/**
 * `vary` (a `Vary` header's value, or none) naming `Accept-Language` as well: an answer chosen
 * by it must say so, so a cache keeps one copy per language.
 */
function varyOnLanguage(vary: string | null | undefined): string {
  if (!vary) return "Accept-Language";
  return NAMES_ACCEPT_LANGUAGE.test(vary) ? vary : `${vary}, Accept-Language`;
}

/**
 * Adds the language headers of an answer written in `tag` to `headers`, in place: `Vary` names
 * `Accept-Language`, and `Content-Language` is `tag` unless the answer says already. From a
 * plain object (lower-case names, as `securedHeaders` gives them) or a `Headers`.
 */
export function addLanguageHeaders(headers: Headers | Record<string, string>, tag: string): void {
  if (headers instanceof Headers) {
    headers.set("vary", varyOnLanguage(headers.get("vary")));
    if (!headers.has("content-language")) headers.set("content-language", tag);
    return;
  }
  headers.vary = varyOnLanguage(headers.vary);
  headers["content-language"] ??= tag;
}
