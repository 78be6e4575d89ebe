/**
 * The codes of errors every package may answer, each with the one status it stands for. A
 * package adds its own words for the cases a client tells apart (`invalid_credentials`,
 * `stale_record`), in a union it exports beside its routes.
 */
export const STATUS_ERROR_CODES = {
  400: "bad_request",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  406: "not_acceptable",
  408: "request_timeout",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  416: "range_not_satisfiable",
  422: "validation_failed",
  429: "rate_limited",
  431: "headers_too_large",
  500: "internal_error",
  503: "unavailable",
} as const;

/** A code of {@link STATUS_ERROR_CODES}: what any error of its status is, by default. */
export type CommonErrorCode = (typeof STATUS_ERROR_CODES)[keyof typeof STATUS_ERROR_CODES];

/**
 * The code an error of `status` has unless its package gives a narrower one: the status's own
 * word, else `bad_request` for another 4xx and `internal_error` for another 5xx.
 */
export function errorCodeOfStatus(status: number): CommonErrorCode {
  const known = (STATUS_ERROR_CODES as Readonly<Record<number, CommonErrorCode>>)[status];
  if (known) return known;
  return status >= 500 ? "internal_error" : "bad_request";
}
