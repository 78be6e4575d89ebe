import { INVALID } from "@tessera/core";

/** The most custom headers an endpoint may have. */
export const MAXIMUM_ENDPOINT_HEADERS = 10;
/** The longest custom header name. */
export const MAXIMUM_HEADER_NAME_LENGTH = 64;
/** The longest custom header value. */
export const MAXIMUM_HEADER_VALUE_LENGTH = 1024;

/** On `headers`: a name that is not an HTTP token of 1 to 64 characters. */
export const HEADER_NAME_INVALID =
  "has a name that is not 1 to 64 letters, digits or ! # $ % & ' * + - . ^ _ ` | ~";
/** On `headers`: a name the sender sets itself, or that no delivery may carry. */
export const HEADER_NAME_RESERVED = "has a name that cannot be set";
/** On `headers`: the same name twice, in two spellings (names are not case-sensitive). */
export const HEADER_NAME_DUPLICATE = "has the same name twice";
/** On `headers`: a value that is not text of printable ASCII, or too long. */
export const HEADER_VALUE_INVALID =
  "has a value that is not up to 1,024 printable ASCII characters without spaces around";
/** On `headers`: more than {@link MAXIMUM_ENDPOINT_HEADERS}. */
export const TOO_MANY_HEADERS = "has more than 10 headers";

// RFC 9110's token: the characters a field name is made of.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Printable ASCII and the space, none at either end (fetch trims them, so the receiver would
// get another value than the one stored). CR, LF and NUL are outside, so nothing can be
// smuggled into a second header line.
const VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

// Names the sender sets, and names whose meaning is the connection's or the client's own:
// fetch's forbidden request headers (so a header that works on Node works on every runtime)
// and those that would let an owner make the app's requests pass for something else to a
// third party's server (its host, its client's address, another method, a browser's cookies).
const RESERVED_NAMES = new Set([
  "accept-charset",
  "accept-encoding",
  "access-control-request-headers",
  "access-control-request-method",
  "access-control-request-private-network",
  "authorization",
  "connection",
  "cookie",
  "cookie2",
  "date",
  "dnt",
  "expect",
  "forwarded",
  "host",
  "keep-alive",
  "origin",
  "referer",
  "set-cookie",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "user-agent",
  "via",
  "x-http-method",
  "x-http-method-override",
  "x-method-override",
  "x-real-ip",
]);
const RESERVED_PREFIXES = ["webhook-", "svix-", "content-", "proxy-", "sec-", "x-forwarded-"];

/**
 * Whether `name` (any case) is one an endpoint's custom headers may not use: the signature's
 * (`webhook-*`, and `svix-*`, which the svix library reads instead), the body's (`content-*`),
 * `user-agent`, `host`, `authorization`, the hop-by-hop and fetch-forbidden ones (`connection`,
 * `transfer-encoding`, `proxy-*`, `sec-*`, `cookie`…), `forwarded`, `x-forwarded-*`,
 * `x-real-ip` and the method overrides.
 */
export function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_NAMES.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * Checks an endpoint's custom headers: an object of at most 10 names (HTTP tokens, 1 to 64
 * characters, none reserved, no two alike but for case) to text values (printable ASCII, at
 * most 1,024 characters, no space at either end). Null is no headers. Answers them, or every
 * message that applies, for the `headers` field.
 */
export function checkEndpointHeaders(
  value: unknown,
): { ok: true; headers: Readonly<Record<string, string>> } | { ok: false; messages: string[] } {
  if (value === null) return { ok: true, headers: {} };
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, messages: [INVALID] };
  const entries = Object.entries(value as Record<string, unknown>);
  const messages = new Set<string>();
  if (entries.length > MAXIMUM_ENDPOINT_HEADERS) messages.add(TOO_MANY_HEADERS);
  const seen = new Set<string>();
  for (const [name, text] of entries) {
    if (name.length > MAXIMUM_HEADER_NAME_LENGTH || !TOKEN.test(name)) {
      messages.add(HEADER_NAME_INVALID);
    } else if (isReservedHeaderName(name)) {
      messages.add(HEADER_NAME_RESERVED);
    } else if (seen.has(name.toLowerCase())) {
      messages.add(HEADER_NAME_DUPLICATE);
    }
    seen.add(name.toLowerCase());
    if (typeof text !== "string") messages.add(INVALID);
    else if (text.length > MAXIMUM_HEADER_VALUE_LENGTH || !VALUE.test(text)) {
      messages.add(HEADER_VALUE_INVALID);
    }
  }
  if (messages.size > 0) return { ok: false, messages: [...messages] };
  return { ok: true, headers: Object.fromEntries(entries) as Record<string, string> };
}
