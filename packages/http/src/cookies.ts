/** Attributes of a `Set-Cookie` header (RFC 6265 §4.1). */
export interface CookieAttributes {
  /** Seconds until expiry (an integer); 0 or less deletes the cookie. */
  readonly maxAge?: number | undefined;
  readonly expires?: Date | undefined;
  readonly path?: string | undefined;
  readonly domain?: string | undefined;
  readonly secure?: boolean | undefined;
  readonly httpOnly?: boolean | undefined;
  /** `None` requires `secure`: browsers drop such a cookie otherwise. */
  readonly sameSite?: "Strict" | "Lax" | "None" | undefined;
}

// RFC 6265 §4.1.1: a name is an RFC 9110 token; a value is cookie-octets, optionally quoted.
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;
// Path and Domain: any CHAR except controls and ";" (§4.1.1 av-octet).
const ATTRIBUTE_VALUE = /^[\x20-\x3a\x3c-\x7e]*$/;
const DOMAIN =
  /^\.?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/**
 * Parses a `Cookie` request header into name → value. Tolerant: pairs without `=` or with an
 * empty name are skipped, one pair of surrounding double quotes is removed, nothing is
 * percent-decoded, and the first value of a repeated name wins (browsers send the most
 * specific path first). A Map, so a cookie named `__proto__` is only a name. Never throws.
 */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (typeof header !== "string") return cookies;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals < 0) continue;
    const name = pair.slice(0, equals).trim();
    if (name === "" || cookies.has(name)) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1);
    cookies.set(name, value);
  }
  return cookies;
}

/**
 * Writes a `Set-Cookie` value. The value is written as given, never encoded: pass text that is
 * already cookie-safe (base64url is). Enforces the `__Secure-` and `__Host-` prefix rules.
 * @throws {TypeError} for an invalid name, value or attribute: a programmer error.
 */
export function serializeCookie(
  name: string,
  value: string,
  attributes: CookieAttributes = {},
): string {
  if (!COOKIE_NAME.test(name)) throw new TypeError(`invalid cookie name ${JSON.stringify(name)}`);
  if (!COOKIE_VALUE.test(value)) throw new TypeError(`invalid value for cookie ${name}`);
  const parts = [`${name}=${value}`];
  const { maxAge, expires, path, domain, secure, httpOnly, sameSite } = attributes;
  if (maxAge !== undefined) {
    if (!Number.isInteger(maxAge)) throw new TypeError("cookie Max-Age must be an integer");
    parts.push(`Max-Age=${maxAge}`);
  }
  if (expires !== undefined) {
    if (Number.isNaN(expires.getTime())) throw new TypeError("cookie Expires is an invalid date");
    parts.push(`Expires=${expires.toUTCString()}`);
  }
  if (domain !== undefined) {
    if (!DOMAIN.test(domain))
      throw new TypeError(`invalid cookie domain ${JSON.stringify(domain)}`);
    parts.push(`Domain=${domain}`);
  }
  if (path !== undefined) {
    if (!path.startsWith("/") || !ATTRIBUTE_VALUE.test(path)) {
      throw new TypeError(`invalid cookie path ${JSON.stringify(path)}`);
    }
    parts.push(`Path=${path}`);
  }
  if (secure) parts.push("Secure");
  if (httpOnly) parts.push("HttpOnly");
  if (sameSite !== undefined) {
    if (sameSite === "None" && !secure) throw new TypeError("SameSite=None requires Secure");
    parts.push(`SameSite=${sameSite}`);
  }
  checkPrefix(name, attributes);
  return parts.join("; ");
}

// RFC 6265bis §4.1.3: browsers refuse prefixed cookies that break these rules, silently.
function checkPrefix(name: string, { secure, path, domain }: CookieAttributes): void {
  if (name.startsWith("__Secure-") && !secure) {
    throw new TypeError("a __Secure- cookie must be Secure");
  }
  if (name.startsWith("__Host-") && (!secure || path !== "/" || domain !== undefined)) {
    throw new TypeError("a __Host- cookie must be Secure, with Path=/ and no Domain");
  }
}

/** A `Set-Cookie` value that deletes a cookie; give the `path` and `domain` it was set with. */
export function expireCookie(
  name: string,
  attributes: Omit<CookieAttributes, "maxAge" | "expires"> = {},
): string {
  return serializeCookie(name, "", { ...attributes, maxAge: 0, expires: new Date(0) });
}
