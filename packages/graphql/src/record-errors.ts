import type { DecodeResult, FieldMessages } from "@tessera/fields";
import { NOT_FOUND_MESSAGE, UNAUTHORIZED_MESSAGE, VALIDATION_FAILED_MESSAGE } from "@tessera/http";
import { STALE_RECORD_MESSAGE } from "@tessera/records";
import { GraphQLError } from "graphql";
import type { GraphqlNames } from "./graphql-model.js";

/**
 * The `extensions.code` of each error a record resolver gives, with the HTTP status the JSON
 * API answers in the same case (also in `extensions.status`).
 */
export const RECORD_ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  VALIDATION_FAILED: 422,
} as const;

/** One of the codes of {@link RECORD_ERROR_STATUS}. */
export type RecordErrorCode = keyof typeof RECORD_ERROR_STATUS;

function recordError(
  code: RecordErrorCode,
  message: string,
  extra: Readonly<Record<string, unknown>> = {},
): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code, status: RECORD_ERROR_STATUS[code], ...extra },
  });
}

/** `Not found`: a missing record and another user's alike, so existence is not revealed. */
export function notFoundError(): GraphQLError {
  return recordError("NOT_FOUND", NOT_FOUND_MESSAGE);
}

/**
 * The account a request authenticated as was deleted while its write ran: the JSON API's 401,
 * since the credentials now name nobody.
 */
export function unauthenticatedError(): GraphQLError {
  return recordError("UNAUTHENTICATED", UNAUTHORIZED_MESSAGE);
}

/** A stale `lockVersion`: the JSON API's 409 message. */
export function conflictError(): GraphQLError {
  return recordError("CONFLICT", STALE_RECORD_MESSAGE);
}

/** A bad argument that GraphQL's types let through (a `limit` out of range, say). */
export function badUserInputError(message: string): GraphQLError {
  return recordError("BAD_USER_INPUT", message);
}

/** `Validation failed`, with `extensions.fields` keyed by the camelCase GraphQL names. */
export function validationError(names: GraphqlNames, fields: FieldMessages): GraphQLError {
  const camelFields: Record<string, readonly string[]> = {};
  for (const [column, messages] of Object.entries(fields)) {
    camelFields[graphqlNameOf(names, column)] = messages;
  }
  return recordError("VALIDATION_FAILED", VALIDATION_FAILED_MESSAGE, { fields: camelFields });
}

/**
 * The error of an input that did not decode: the JSON API's 400 reason with its column in
 * GraphQL spelling (`pinned: invalid type: null, expected a boolean`), or its 422.
 */
export function decodeError(
  names: GraphqlNames,
  refusal: Exclude<DecodeResult, { ok: true }>,
): GraphQLError {
  if (refusal.status === 422) return validationError(names, refusal.fields);
  const reason = refusal.reason
    .replace(/^([a-z][a-z0-9_]*):/, (_, column: string) => `${graphqlNameOf(names, column)}:`)
    .replace(/`([a-z][a-z0-9_]*)`/, (_, column: string) => `\`${graphqlNameOf(names, column)}\``);
  return badUserInputError(reason);
}

function graphqlNameOf(names: GraphqlNames, column: string): string {
  return names.output.find((each) => each.column === column)?.name ?? column;
}
