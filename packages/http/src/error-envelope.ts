import { type CommonErrorCode, type ErrorDetails, errorEnvelope } from "@tessera/core";

/** Message of a 404. */
export const NOT_FOUND_MESSAGE = "Not found";
/** Message of a 401. */
export const UNAUTHORIZED_MESSAGE = "Unauthorized";
/** Message of a 429. */
export const TOO_MANY_REQUESTS_MESSAGE = "Too many requests. Try again later.";
/** Message of a 422; the details go in `fields`. */
export const VALIDATION_FAILED_MESSAGE = "Validation failed";

/**
 * The codes `@tessera/http` answers with: the common ones of each status, a request for a host
 * the app does not serve, and one refused by the cross-site check.
 */
export type HttpErrorCode = CommonErrorCode | "unknown_host" | "cross_site_request";

/**
 * A JSON error response in the envelope (docs/errors.md): `code` defaults to the status's own
 * word. `headers` are added to the response (for example `WWW-Authenticate` or `Retry-After`).
 */
export function jsonError(
  status: number,
  message: string,
  options: ErrorDetails & { readonly headers?: HeadersInit } = {},
): Response {
  const { headers, ...details } = options;
  return Response.json(errorEnvelope(status, message, details), { status, headers: headers ?? {} });
}

/** 400 with the given message; `code` defaults to `bad_request`. */
export function badRequest(message: string, code?: string): Response {
  return jsonError(400, message, code === undefined ? {} : { code });
}

/** 401 `Unauthorized`; bearer routes pass `{ "WWW-Authenticate": "Bearer" }` as `headers`. */
export function unauthorized(headers?: HeadersInit): Response {
  return jsonError(401, UNAUTHORIZED_MESSAGE, headers ? { headers } : {});
}

/** 403 with the given message; `code` defaults to `forbidden`. */
export function forbidden(message: string, code?: string): Response {
  return jsonError(403, message, code === undefined ? {} : { code });
}

/** 404 `Not found`: also the answer for another user's record, so existence is not revealed. */
export function notFound(): Response {
  return jsonError(404, NOT_FOUND_MESSAGE);
}

/**
 * 422 `Validation failed` with every failing field at once: field name → bare messages
 * (`{"email": ["is invalid"]}`).
 */
export function validationFailed(fields: Readonly<Record<string, readonly string[]>>): Response {
  return jsonError(422, VALIDATION_FAILED_MESSAGE, { fields });
}

/** 429 `Too many requests. Try again later.`; pass `retryAfterSeconds` to add `Retry-After`. */
export function tooManyRequests(retryAfterSeconds?: number): Response {
  const headers =
    retryAfterSeconds === undefined
      ? undefined
      : { "Retry-After": String(Math.max(0, Math.ceil(retryAfterSeconds))) };
  return jsonError(429, TOO_MANY_REQUESTS_MESSAGE, headers ? { headers } : {});
}
