// The rule for an answer's language headers, in one place: jsonAnswer writes them into a new
// answer's init, withLanguageHeaders adds them to an answer made without them.

const NAMES_ACCEPT_LANGUAGE = /(^|,)\s*accept-language\s*(,|$)/i;

/**
 * `vary` (a `Vary` header's value, or none) naming `Accept-Language` as well: an answer chosen
 * by it must say so, so a cache keeps one copy per language.
 */
export function varyOnLanguage(vary: string | null | undefined): string {
  if (!vary) return "Accept-Language";
  return NAMES_ACCEPT_LANGUAGE.test(vary) ? vary : `${vary}, Accept-Language`;
}
