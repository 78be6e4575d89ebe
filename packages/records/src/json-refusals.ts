import { DESERIALIZE_PREFIX, type DecodeResult } from "@tessera/fields";
import { badRequest, jsonError, notFound, validationFailed } from "@tessera/http";
import { STALE_RECORD_MESSAGE } from "./record-messages.js";
import type { UpdateResult } from "./record-writes.js";

/** The 400 (the deserialize prefix and the reason) or 422 of a body that did not decode. */
export function decodeRefusal(result: Exclude<DecodeResult, { ok: true }>): Response {
  return result.status === 400
    ? badRequest(`${DESERIALIZE_PREFIX}${result.reason}`)
    : validationFailed(result.fields);
}

/** The answer to a refused update: 404, 409 (stale lock version) or 422. */
export function updateRefusal(result: Exclude<UpdateResult, { ok: true }>): Response {
  if (result.reason === "invalid") return validationFailed(result.fields);
  return result.reason === "stale" ? jsonError(409, STALE_RECORD_MESSAGE) : notFound();
}
