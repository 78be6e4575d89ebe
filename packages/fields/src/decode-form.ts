import {
  type AttachmentRules,
  DEFAULT_ATTACHMENT_RULES,
  validateAttachment,
} from "./attachment-rules.js";
import { type ColumnRead, isBlank, readFormText } from "./column-read.js";
import {
  type ColumnValue,
  type DecodedForm,
  type DecodeResult,
  type FormFile,
  type FormInput,
  invalid,
  type Upload,
} from "./decode-result.js";
import type { Field } from "./field.js";
import { BLANK, type FieldMessages } from "./messages.js";
import { joinPair, polymorphicParts } from "./polymorphic-pair.js";
import { newPublicId } from "./public-id.js";
import type { PreparedRichText } from "./rich-text-prepare.js";

/** Options of {@link decodeForm}. */
export interface FormDecodeOptions {
  /** `create` (default): a missing input is empty. `update`: a missing input keeps its column. */
  readonly mode?: "create" | "update" | undefined;
  /** Rules per attachment field name; the defaults otherwise. */
  readonly attachmentRules?: Readonly<Record<string, AttachmentRules>> | undefined;
  /** Makes the `public_id` of a new record (default {@link newPublicId}). */
  readonly newPublicId?: (() => string) | undefined;
  /** Long rich_text values already sanitized, from `prepareRichText`. */
  readonly richText?: PreparedRichText | undefined;
}

const NULL: ColumnRead = { ok: true, value: null };

/**
 * Decodes an HTML form (`FormData` or `URLSearchParams`): an unchecked checkbox is false, an
 * empty or whitespace-only optional value is null, and every failing field is reported at once
 * (forms never give a 400). Files that pass the attachment rules come back as `uploads`; store
 * them and set their four columns yourself. With repeated names the last value wins.
 */
export function decodeForm<F extends FormFile>(
  fields: readonly Field[],
  form: FormInput<F>,
  options: FormDecodeOptions = {},
): DecodeResult<DecodedForm<F>> {
  const create = (options.mode ?? "create") === "create";
  const values: Record<string, ColumnValue> = {};
  const messages: FieldMessages = {};
  const uploads: Upload<F>[] = [];
  let lockVersion: number | undefined;
  const record = (key: string, read: ColumnRead) => {
    if (read.ok) values[key] = read.value;
    else if (read.status === 422) messages[key] = [...read.messages];
  };

  for (const field of fields) {
    const key = field.columns[0] ?? field.name;
    switch (field.type) {
      case "attachment":
      case "attachments": {
        const rules = options.attachmentRules?.[field.name] ?? DEFAULT_ATTACHMENT_RULES;
        const files = filesOf(form, field.name);
        const chosen = field.type === "attachment" ? files.slice(-1) : files;
        const refusals = new Set(chosen.flatMap((file) => validateAttachment(file, rules)));
        if (refusals.size > 0) messages[field.name] = [...refusals];
        else for (const file of chosen) uploads.push({ field: field.name, file });
        if (chosen.length === 0 && create && field.type === "attachment" && !field.optional) {
          messages[field.name] = [BLANK];
        }
        break;
      }
      case "public_id":
        if (create) values.public_id = (options.newPublicId ?? newPublicId)();
        break;
      case "lock_version": {
        const text = lastText(form, key);
        if (text === undefined || isBlank(text)) break;
        const read = readFormText(field, text);
        if (read.ok) lockVersion = read.value as number;
        else record(key, read);
        break;
      }
      case "polymorphic": {
        const [typePart, idPart] = polymorphicParts(field);
        const typeText = lastText(form, typePart.name);
        const idText = lastText(form, idPart.name);
        if (!create && typeText === undefined && idText === undefined) break;
        const read = (part: Field, text = "") => (isBlank(text) ? NULL : readFormText(part, text));
        const pair = joinPair(field, read(typePart, typeText), read(idPart, idText));
        // A required pair left blank points nowhere: `must exist` on the id, like a reference.
        const bothBlank = pair.every(([, column]) => column.ok && column.value === null);
        if (bothBlank && !field.optional) record(idPart.name, readFormText(idPart, ""));
        else for (const [column, columnRead] of pair) record(column, columnRead);
        break;
      }
      default: {
        const text = lastText(form, key);
        if (text === undefined && !create && field.type !== "boolean") break;
        if (field.optional && isBlank(text ?? "")) record(key, NULL);
        else record(key, readFormText(field, text ?? "", options.richText));
      }
    }
  }
  if (Object.keys(messages).length > 0) return invalid(messages);
  const decoded =
    lockVersion === undefined ? { values, uploads } : { values, uploads, lockVersion };
  return { ok: true, value: decoded };
}

/** The last text sent under `name` (files skipped), as the decoder reads an input. */
export function lastText<F extends FormFile>(form: FormInput<F>, name: string): string | undefined {
  const entries = form.getAll(name);
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (typeof entry === "string") return entry;
  }
  return undefined;
}

/** The files sent under `name`; browsers send an empty, nameless part for an empty file input. */
function filesOf<F extends FormFile>(form: FormInput<F>, name: string): F[] {
  return form
    .getAll(name)
    .filter(
      (entry): entry is F => typeof entry !== "string" && (entry.size > 0 || entry.name !== ""),
    );
}
