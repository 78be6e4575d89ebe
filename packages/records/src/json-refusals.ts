import { DESERIALIZE_PREFIX, type DecodeResult } from "@tessera/fields";
import { badRequest, jsonError, notFound, unauthorized, validationFailed } from "@tessera/http";
import { STALE_RECORD, STALE_RECORD_MESSAGE } from "./record-messages.js";
import type { UpdateResult } from "./record-writes.js";

/** The 400 (the deserialize prefix and the reason) or 422 of a body that did not decode. */
export function decodeRefusal(result: Exclude<DecodeResult, { ok: true }>): Response {
  return result.status === 400
    ? badRequest(`${DESERIALIZE_PREFIX}${result.reason}`)
    : validationFailed(result.fields);
}

/**
 * The answer to a refused create or update: 422, 404, 409 (stale lock version), or 401 with
 * `WWW-Authenticate: Bearer` when the owner's account was deleted meanwhile (its credentials
 * name nobody now, as a revoked key does).
 */
export function writeRefusal(result: Exclude<UpdateResult, { ok: true }>): Response {
  switch (result.reason) {
    case "invalid":
      return validationFailed(result.fields);
    case "owner-missing":
      return unauthorized({ "WWW-Authenticate": "Bearer" });
    case "stale":
      return jsonError(409, STALE_RECORD_MESSAGE, { code: STALE_RECORD });
    case "not-found":
      return notFound();
  }
}
