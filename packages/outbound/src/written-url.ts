/**
 * The message a URL not written out plainly gets in a form's or API's field errors (`url`):
 * a user name or password (even empty), a missing or extra slash, a backslash, a space or a
 * control character.
 */
export const URL_NOT_PLAIN =
  "must be written as http(s)://host/path, with no user name or password";

// The scheme, then exactly two slashes and the first character of a host.
const PLAIN_START = /^https?:\/\/[^/\\]/i;
// Spaces and C0 controls (the parser drops tabs and newlines, and encodes the rest), DEL, and
// the backslash, which the parser reads as a slash in http(s) URLs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const REPAIRED_CHARACTER = /[\u0000-\u0020\u007f\\]/;

/**
 * Why the text of an http(s) URL is not written the way it will be requested, or undefined
 * when it is. The WHATWG parser repairs what a person would not write on purpose:
 * `http:/8.8.8.8`, `http:8.8.8.8`, `http:///8.8.8.8` and `http:\\8.8.8.8` all reach
 * `http://8.8.8.8/`, tabs and newlines vanish from inside the host, and `http://:@8.8.8.8/` has
 * an empty user name and password that `URL` reports as none. Such a URL is refused rather than
 * stored in its repaired form: what its owner wrote would not be what is requested, and the
 * forms are the ones filters are dodged with.
 */
export function urlNotPlain(input: string): string | undefined {
  if (REPAIRED_CHARACTER.test(input)) {
    return "the URL holds a space, a control character or a backslash";
  }
  if (!PLAIN_START.test(input)) return "the URL does not start with http:// or https:// and a host";
  const afterSlashes = input.indexOf("//") + 2;
  const authority = input.slice(afterSlashes).split(/[/?#]/, 1)[0] ?? "";
  if (authority.includes("@")) return "a user name or password in the URL is not allowed";
  return undefined;
}
