import { type CommonErrorCode, type ErrorDetails, errorEnvelope, type Locale } from "@tessera/core";
import { httpMessages } from "./http-messages.js";
import { jsonAnswer } from "./secured-responses.js";

/**
 * The codes `@tessera/http` answers with: the common ones of each status, a request for a host
 * the app does not serve, and one refused by the cross-site check.
 */
export type HttpErrorCode = CommonErrorCode | "unknown_host" | "cross_site_request";

/** The options of {@link jsonError}: the envelope's details, and how the answer is sent. */
export type JsonErrorOptions = ErrorDetails & {
  /** Added to the response (for example `WWW-Authenticate` or `Retry-After`). */
  readonly headers?: HeadersInit | undefined;
  /** The locale `message` is written in: the answer's language headers go in its init. */
  readonly locale?: Locale | undefined;
};

/**
 * A JSON error response in the envelope (docs/errors.md): `code` defaults to the status's own
 * word. Given the `locale` of its message, it carries its language headers from the start, as
 * `jsonAnswer` does, so `localeNegotiation` leaves it unread.
 */
export function jsonError(
  status: number,
  message: string,
  options: JsonErrorOptions = {},
): Response {
  const { headers, locale, ...details } = options;
  return jsonAnswer(errorEnvelope(status, message, details), {
    status,
    headers: headers ?? {},
    locale,
  });
}

/** 400 with the given message; `code` defaults to `bad_request`. */
export function badRequest(message: string, code?: string): Response {
  return jsonError(400, message, code === undefined ? {} : { code });
}

/**
 * 401 `Unauthorized` in `locale`; bearer routes pass `{ "WWW-Authenticate": "Bearer" }` as
 * `headers`.
 */
export function unauthorized(headers?: HeadersInit, locale?: Locale): Response {
  const message = httpMessages.text(locale, "http.unauthenticated");
  return jsonError(401, message, { headers, locale });
}

/** 403 with the given message, written in `locale`; `code` defaults to `forbidden`. */
export function forbidden(message: string, code?: string, locale?: Locale): Response {
  return jsonError(403, message, { ...(code === undefined ? {} : { code }), locale });
}

/**
 * 404 `Not found` in `locale`: also the answer for another user's record, so existence is not
 * revealed.
 */
export function notFound(locale?: Locale): Response {
  return jsonError(404, httpMessages.text(locale, "http.not_found"), { locale });
}

/**
 * 422 `Validation failed` in `locale` with every failing field at once: field name → bare
 * messages (`{"email": ["is invalid"]}`), which the caller has written in the same locale.
 */
export function validationFailed(
  fields: Readonly<Record<string, readonly string[]>>,
  locale?: Locale,
): Response {
  return jsonError(422, httpMessages.text(locale, "http.validation_failed"), { fields, locale });
}

/**
 * The `Retry-After` header of a 429 (JSON or page): whole seconds, rounded up so a client never
 * comes back early, and never negative.
 */
export function retryAfter(seconds: number): { readonly "Retry-After": string } {
  return { "Retry-After": String(Math.max(0, Math.ceil(seconds))) };
}

/**
 * 429 `Too many requests. Try again later.` in `locale`; pass `retryAfterSeconds` to add
 * `Retry-After`.
 */
export function tooManyRequests(retryAfterSeconds?: number, locale?: Locale): Response {
  const headers = retryAfterSeconds === undefined ? undefined : retryAfter(retryAfterSeconds);
  const message = httpMessages.text(locale, "http.rate_limited");
  return jsonError(429, message, { headers, locale });
}

/**
 * The `error.message` of an answer with a JSON error envelope (one of {@link jsonError}'s);
 * empty when the answer is not one. It reads the body: pass an answer you will not send.
 */
export async function errorEnvelopeMessage(answer: Response): Promise<string> {
  try {
    const body = (await answer.json()) as { error?: { message?: unknown } | undefined };
    return typeof body.error?.message === "string" ? body.error.message : "";
  } catch {
    return "";
  }
}
