import { humanizeFieldName, type Model } from "@tessera/fields";
import type { HttpErrorCode } from "@tessera/http";

/**
 * The `error.code`s the record routes answer with: `@tessera/http`'s, and `stale_record` for an
 * update that sent a stale `lock_version` (409).
 */
export type RecordErrorCode = HttpErrorCode | "stale_record";

/** The code of an update that sent a stale `lock_version`. */
export const STALE_RECORD: RecordErrorCode = "stale_record";

/** The 409 message of an update that sent a stale `lock_version`. */
export const STALE_RECORD_MESSAGE =
  "This record was changed by someone else: reload it and try again";

/** `Post`, `Blog post`: the model's name as pages and flashes show it. */
export function modelTitle(model: Model): string {
  return humanizeFieldName(model.name);
}

/** The flash after a create, update or delete from an HTML form: `Post was created.` */
export function recordFlash(model: Model, action: "created" | "updated" | "deleted"): string {
  return `${modelTitle(model)} was ${action}.`;
}
