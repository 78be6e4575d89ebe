import { singularize } from "./inflection.js";
import type { RecordEventAction } from "./model-events.js";
import type { RecordOwnerKind } from "./record-owner.js";
import type { RichTextSanitizer } from "./rich-text.js";
import type { UniqueScope } from "./unique-scope.js";

/** The resolved type of a field, after aliases (`int`, `bool`, `jsonb`, ...) are applied. */
export type FieldType =
  | "string"
  | "text"
  | "rich_text"
  | "integer"
  | "float"
  | "boolean"
  | "date"
  | "datetime"
  | "time"
  | "decimal"
  | "uuid"
  | "references"
  | "polymorphic"
  | "attachment"
  | "attachments"
  | "json"
  | "enum"
  | "public_id"
  | "lock_version";

/**
 * One parsed field declaration. `columns` lists the columns the field occupies in its own
 * table, in order; JSON and form inputs use the same names as keys (`post_id` for
 * `post:references`, `target_type` and `target_id` for a polymorphic `target`).
 */
export interface Field {
  readonly name: string;
  readonly type: FieldType;
  readonly optional: boolean;
  readonly unique: boolean;
  /**
   * For `^` fields: `owner` when the value is unique per owner (set by `defineModel`'s
   * `uniqueScope`); absent means unique across the whole table.
   */
  readonly uniqueScope?: UniqueScope | undefined;
  /** Enum values, polymorphic model names, or the referenced model (`[model]`) for references. */
  readonly args: readonly string[];
  /** Empty for `attachments`, whose files live in a child table (see {@link childTableName}). */
  readonly columns: readonly string[];
  /** For `references`: the referenced model and its table. */
  readonly references?: { readonly model: string; readonly table: string } | undefined;
  /** The declaration as written, e.g. `slug:string?^`. */
  readonly declaration: string;
  /**
   * For `rich_text`: what its values are sanitized with (`defineModel`'s `richText` option).
   * Decoding a rich_text value of a field without one throws.
   */
  readonly sanitizer?: RichTextSanitizer | undefined;
}

/** A model: its singular snake_case name, its table and its fields in declaration order. */
export interface Model {
  readonly name: string;
  readonly table: string;
  readonly fields: readonly Field[];
  /**
   * The writes that send an event (`defineModel`'s `events`); none when left out or empty.
   * Only a record store given somewhere to send them sends any (`SqlRecordStore`'s `events`).
   */
  readonly events?: readonly RecordEventAction[] | undefined;
  /**
   * Who the records belong to (`defineModel`'s `owner`): `user` (or absent), the default, or
   * `organization` for an organization's (`organization_id` and `created_by` columns).
   */
  readonly owner?: RecordOwnerKind | undefined;
}

/** Names (of fields, enum values, models) are snake_case starting with a letter. */
export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** The four columns of an `attachment` field, in table order. */
export function attachmentColumns(name: string): readonly string[] {
  return [`${name}_key`, `${name}_filename`, `${name}_content_type`, `${name}_size`];
}

/** The child table that holds the files of an `attachments` field: `<model>_<singular>`. */
export function childTableName(model: string, field: Field): string {
  return `${model}_${singularize(field.name)}`;
}

/** The attachment field inside an `attachments` child table: `photos` keeps its files as `photo`. */
export function childAttachmentName(field: Field): string {
  return singularize(field.name);
}
