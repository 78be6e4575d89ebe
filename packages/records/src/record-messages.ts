import { defineMessages, type Locale, type MessageIdOf } from "@tessera/core";
import { humanizeFieldName, type Model } from "@tessera/fields";
import type { HttpErrorCode } from "@tessera/http";

/**
 * The messages the record routes and pages write for people, in English (the spec's exact
 * strings). `{model}` is the model's name as a person reads it (`Post`), `{models}` its table's
 * (`Posts`); lower-cased where the English puts them mid-sentence.
 */
export const recordMessages = defineMessages({
  "records.stale_record": "This record was changed by someone else: reload it and try again",
  "records.range_not_satisfiable": "Range not satisfiable",
  "records.range_outside_file": "The requested range is outside the file.",
  "records.created": "{model} was created.",
  "records.updated": "{model} was updated.",
  "records.deleted": "{model} was deleted.",
  "records.not_found": "Not found",
  "records.not_allowed": "Not allowed",
  "records.no_such_record": "There is no such record.",
  "records.account_gone": "This account no longer exists.",
  "records.form_too_large": "Form too large",
  "records.form_larger_than": "The form is larger than {size}.",
  "records.form_too_many_parts": "The form has more than {count} fields and files.",
  "records.form_too_many_per_field": "The form has more than {count} files for one field.",
  "records.bad_request": "Bad request",
  "records.form_unreadable": "The form could not be read.",
  "records.yes": "Yes",
  "records.no": "No",
  "records.show": "Show",
  "records.newer": "Newer",
  "records.older": "Older",
  "records.none_yet": "No {models} yet.",
  "records.actions": "Actions",
  "records.pages": "Pages",
  "records.new": "New {model}",
  "records.created_at": "Created at",
  "records.updated_at": "Updated at",
  "records.edit": "Edit",
  "records.back_to": "Back to {models}",
  "records.delete_this": "Delete this {model}",
  "records.create": "Create {model}",
  "records.edit_heading": "Edit {model}",
  "records.update": "Update {model}",
  "records.cancel": "Cancel",
  "records.file_details": "{type}, {size} bytes",
});

/** An id of {@link recordMessages}. */
export type RecordMessageId = MessageIdOf<typeof recordMessages>;

/**
 * The `error.code`s the record routes answer with: `@tessera/http`'s, `stale_record` for an
 * update that sent a stale `lock_version` (409), and `too_many_parts` for an upload whose
 * multipart body has more parts than its bounds (413).
 */
export type RecordErrorCode = HttpErrorCode | "stale_record" | "too_many_parts";

/** The code of an upload whose multipart body has too many parts, or too many of one name. */
export const TOO_MANY_PARTS: RecordErrorCode = "too_many_parts";

/** The code of an update that sent a stale `lock_version`. */
export const STALE_RECORD: RecordErrorCode = "stale_record";

/** `Post`, `Blog post`: the model's name as pages and flashes show it. */
export function modelTitle(model: Model): string {
  return humanizeFieldName(model.name);
}

/** The flash after a create, update or delete from an HTML form: `Post was created.` */
export function recordFlash(
  model: Model,
  action: "created" | "updated" | "deleted",
  locale?: Locale,
): string {
  return recordMessages.text(locale, `records.${action}`, { model: modelTitle(model) });
}
