import type { Locale } from "@tessera/core";
import { addLanguageHeaders } from "./language-headers.js";
import { SECURITY_HEADERS } from "./security-headers.js";

// Marks responses made with SECURITY_HEADERS in their init and no HTML body. The header
// middleware skips them: reading `response.headers` after the fact makes @hono/node-server turn
// its plain header object into a Headers and back on every answer (8–10% of a small route's
// CPU). A property under this module's own symbol rather than an entry in a WeakSet: adding to
// a WeakSet cost about 0.4 µs per answer, besides the collector's work on its ephemeron table.
const SECURED = Symbol("tessera.securedAnswer");

// The language tag of an answer made with its Content-Language and Vary in its init (jsonAnswer
// with a locale), for the same reason: localeNegotiation then leaves its headers unread.
const LANGUAGE = Symbol("tessera.answerLanguage");

/** A response that may carry the marks. */
type Markable = Response & { [SECURED]?: true | undefined; [LANGUAGE]?: string | undefined };

// Lower-case names, so that a caller's `Content-Type` replaces ours instead of sitting beside
// it: in a plain header object two spellings of one name would both be sent.
const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS).map(
  ([name, value]) => [name.toLowerCase(), value] as const,
);

/**
 * `headers` with {@link SECURITY_HEADERS} and `defaults` under them (a header in `headers` wins).
 * From a plain object, a plain object with lower-case names (what a response's init wants for
 * the server's fast path); from a `Headers` or a list, which may carry several `Set-Cookie`, a
 * `Headers`.
 */
export function securedHeaders(
  headers: HeadersInit = {},
  defaults: Readonly<Record<string, string>> = {},
): HeadersInit {
  if (headers instanceof Headers || Array.isArray(headers)) {
    const merged = new Headers(headers);
    for (const [name, value] of [...SECURITY_HEADER_ENTRIES, ...Object.entries(defaults)]) {
      if (!merged.has(name)) merged.set(name, value);
    }
    return merged;
  }
  const merged: Record<string, string> = {};
  for (const [name, value] of SECURITY_HEADER_ENTRIES) merged[name] = value;
  for (const name in defaults) merged[name.toLowerCase()] = defaults[name]!;
  for (const name in headers) merged[name.toLowerCase()] = headers[name]!;
  return merged;
}

/**
 * Marks `response` as carrying {@link SECURITY_HEADERS} from its init and not being an HTML page,
 * so that `withSecurityHeaders`, `withPageHeaders` and the frameworks' header middleware leave
 * it as it is. Only for a response made with {@link securedHeaders} (or the same headers).
 */
export function markSecured(response: Response): Response {
  (response as Markable)[SECURED] = true;
  return response;
}

/** Whether `response` was marked by {@link markSecured}: it needs no security header added. */
export function isSecured(response: Response): boolean {
  return (response as Markable)[SECURED] === true;
}

const JSON_TYPE = { "content-type": "application/json" };

/** The init of {@link jsonAnswer}: a response's, and the language the answer is written in. */
export interface AnswerInit extends ResponseInit {
  /**
   * The locale the answer's text is in (a route's `context.locale`): its `Content-Language` and
   * `Vary: Accept-Language` then go in the init, so `localeNegotiation` has nothing to add.
   */
  readonly locale?: Locale | undefined;
}

/**
 * `Response.json(body, init)` with {@link SECURITY_HEADERS} in its init, marked so no middleware
 * edits its headers afterwards (see {@link markSecured}); given `init.locale`, with the answer's
 * language headers in its init too.
 * @throws {TypeError} when `body` has no JSON form (`undefined`, a function), as `Response.json`.
 */
export function jsonAnswer(body: unknown, init: AnswerInit = {}): Response {
  const text = JSON.stringify(body);
  if (text === undefined) throw new TypeError("the answer's body has no JSON form");
  return securedAnswer(text, init, JSON_TYPE);
}

/**
 * A response with {@link SECURITY_HEADERS} (and `defaults` under `init.headers`) in its init,
 * marked as {@link jsonAnswer}'s are: for a body already written out that is not an HTML page
 * (a page needs its policy). Given `init.locale`, with the answer's language headers too.
 */
export function securedAnswer(
  body: string | null,
  init: AnswerInit = {},
  defaults: Readonly<Record<string, string>> = {},
): Response {
  const { locale, ...responseInit } = init;
  const headers = securedHeaders(init.headers, defaults);
  // Plain or a Headers, as securedHeaders made it for this answer alone.
  if (locale) addLanguageHeaders(headers as Headers | Record<string, string>, locale.tag);
  const answer: Markable = new Response(body, { ...responseInit, headers });
  if (locale) answer[LANGUAGE] = locale.tag;
  return markSecured(answer);
}

/**
 * The language {@link securedAnswer} (or {@link jsonAnswer}) wrote an answer's
 * `Content-Language` and `Vary` for, in its init; undefined for any other answer (a copy of one
 * included).
 */
export function answerLanguage(response: Response): string | undefined {
  return (response as Markable)[LANGUAGE];
}
