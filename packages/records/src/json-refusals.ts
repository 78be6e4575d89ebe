import type { Locale } from "@tessera/core";
import { DESERIALIZE_PREFIX, type DecodeResult, localizeFieldMessages } from "@tessera/fields";
import { badRequest, jsonError, notFound, unauthorized, validationFailed } from "@tessera/http";
import { recordMessages, STALE_RECORD } from "./record-messages.js";
import type { UpdateResult } from "./record-writes.js";

/** The 422 of `fields` (field name → English messages), everything in `locale`. */
export function fieldsRefusal(
  fields: Readonly<Record<string, readonly string[]>>,
  locale: Locale | undefined,
): Response {
  return validationFailed(localizeFieldMessages(fields, locale), locale);
}

/**
 * The 400 (the deserialize prefix and the reason, for the client's developer: English) or the
 * 422 in `locale` of a body that did not decode.
 */
export function decodeRefusal(
  result: Exclude<DecodeResult, { ok: true }>,
  locale: Locale | undefined,
): Response {
  return result.status === 400
    ? badRequest(`${DESERIALIZE_PREFIX}${result.reason}`)
    : fieldsRefusal(result.fields, locale);
}

/**
 * The answer in `locale` to a refused create or update: 422, 404, 409 (stale lock version), or 401 with
 * `WWW-Authenticate: Bearer` when the owner's account was deleted meanwhile (its credentials
 * name nobody now, as a revoked key does).
 */
export function writeRefusal(
  result: Exclude<UpdateResult, { ok: true }>,
  locale: Locale | undefined,
): Response {
  switch (result.reason) {
    case "invalid":
      return fieldsRefusal(result.fields, locale);
    case "owner-missing":
      return unauthorized({ "WWW-Authenticate": "Bearer" }, locale);
    case "stale":
      return jsonError(409, recordMessages.text(locale, "records.stale_record"), {
        code: STALE_RECORD,
        locale,
      });
    case "not-found":
      return notFound(locale);
  }
}
