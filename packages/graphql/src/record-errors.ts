import type { Locale } from "@tessera/core";
import { type DecodeResult, type FieldMessages, localizeFieldMessages } from "@tessera/fields";
import { httpMessages } from "@tessera/http";
import { type RecordErrorCode, recordMessages } from "@tessera/records";
import { GraphQLError } from "graphql";
import type { GraphqlNames } from "./graphql-model.js";

/**
 * The `extensions.code` of each error a record resolver gives (the JSON API's `error.code` in
 * the same case), with the HTTP status the JSON API answers (also in `extensions.status`).
 */
export const RECORD_ERROR_STATUS = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  stale_record: 409,
  validation_failed: 422,
} as const satisfies Readonly<Partial<Record<RecordErrorCode, number>>>;

/** One of the codes of {@link RECORD_ERROR_STATUS}. */
export type GraphqlRecordErrorCode = keyof typeof RECORD_ERROR_STATUS;

function recordError(
  code: GraphqlRecordErrorCode,
  message: string,
  extra: Readonly<Record<string, unknown>> = {},
): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code, status: RECORD_ERROR_STATUS[code], ...extra },
  });
}

/**
 * `Not found` in `locale`: a missing record and another user's alike, so existence is not
 * revealed.
 */
export function notFoundError(locale?: Locale): GraphQLError {
  return recordError("not_found", httpMessages.text(locale, "http.not_found"));
}

/**
 * The account a request authenticated as was deleted while its write ran: the JSON API's 401,
 * since the credentials now name nobody.
 */
export function unauthenticatedError(locale?: Locale): GraphQLError {
  return recordError("unauthenticated", httpMessages.text(locale, "http.unauthenticated"));
}

/**
 * A member of an organization whose role lacks the operation's permission: the JSON API's 403,
 * with its message (`You need the projects:create permission.`).
 */
export function forbiddenError(message: string): GraphQLError {
  return recordError("forbidden", message);
}

/** A stale `lockVersion`: the JSON API's 409 message, in `locale`. */
export function conflictError(locale?: Locale): GraphQLError {
  return recordError("stale_record", recordMessages.text(locale, "records.stale_record"));
}

/** A bad argument that GraphQL's types let through (a `limit` out of range, say). */
export function badUserInputError(message: string): GraphQLError {
  return recordError("bad_request", message);
}

/**
 * `Validation failed`, with `extensions.fields` keyed by the camelCase GraphQL names, all in
 * `locale`.
 */
export function validationError(
  names: GraphqlNames,
  fields: FieldMessages,
  locale?: Locale,
): GraphQLError {
  const camelFields: Record<string, readonly string[]> = {};
  for (const [column, messages] of Object.entries(localizeFieldMessages(fields, locale))) {
    camelFields[graphqlNameOf(names, column)] = messages;
  }
  const message = httpMessages.text(locale, "http.validation_failed");
  return recordError("validation_failed", message, { fields: camelFields });
}

/**
 * The error of an input that did not decode: the JSON API's 400 reason with its column in
 * GraphQL spelling (`pinned: invalid type: null, expected a boolean`, for the developer:
 * English), or its 422 in `locale`.
 */
export function decodeError(
  names: GraphqlNames,
  refusal: Exclude<DecodeResult, { ok: true }>,
  locale?: Locale,
): GraphQLError {
  if (refusal.status === 422) return validationError(names, refusal.fields, locale);
  const reason = refusal.reason
    .replace(/^([a-z][a-z0-9_]*):/, (_, column: string) => `${graphqlNameOf(names, column)}:`)
    .replace(/`([a-z][a-z0-9_]*)`/, (_, column: string) => `\`${graphqlNameOf(names, column)}\``);
  return badUserInputError(reason);
}

function graphqlNameOf(names: GraphqlNames, column: string): string {
  return names.output.find((each) => each.column === column)?.name ?? column;
}
