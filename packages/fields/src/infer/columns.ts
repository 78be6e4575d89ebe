// Type level: the columns of an accepted field, each with its JSON type and its decoded type.

import type { JsonValue } from "../encode-record.js";
import type { FieldShape } from "./parse.js";

/**
 * How a column is written:
 * - `sent`: by the client, in a create or update body;
 * - `defaulted`: the same, but a create without it stores a default (a boolean: false);
 * - `generated`: made on create (the public id), never sent;
 * - `lock`: the lock version, sent back on update for the stale check;
 * - `read_only`: only in the record (an attachment's columns: files have their own routes).
 */
export type ColumnInput = "sent" | "defaulted" | "generated" | "lock" | "read_only";

/** One column as the types see it. */
export interface ColumnShape {
  readonly column: string;
  /** Its type in the JSON record and in JSON bodies, null left out. */
  readonly json: unknown;
  /** Its type once decoded for the database (`decodeJsonCreate`'s values), null left out. */
  readonly value: unknown;
  /** Whether it may be null (the field is optional). */
  readonly nullable: boolean;
  readonly input: ColumnInput;
}

/** A JSON value other than null: what a required json field holds. */
export type JsonPresent = Exclude<JsonValue, null>;

type Column<C extends string, Json, Value, Nullable extends boolean, Input extends ColumnInput> = {
  column: C;
  json: Json;
  value: Value;
  nullable: Nullable;
  input: Input;
};

type Text = "string" | "text" | "rich_text" | "date" | "datetime" | "time" | "decimal" | "uuid";

/** The {@link ColumnShape}s of one field, as a union (distributes over a union of fields). */
export type ColumnsOf<F extends FieldShape> = F extends FieldShape
  ? F["type"] extends Text
    ? Column<F["name"], string, string, F["optional"], "sent">
    : F["type"] extends "integer" | "float"
      ? Column<F["name"], number, number, F["optional"], "sent">
      : F["type"] extends "boolean"
        ? Column<F["name"], boolean, 0 | 1, false, "defaulted">
        : F["type"] extends "json"
          ? Column<F["name"], JsonPresent, string, F["optional"], "sent">
          : F["type"] extends "enum"
            ? Column<F["name"], F["values"], F["values"], F["optional"], "sent">
            : F["type"] extends "references"
              ? Column<F["columns"][0] & string, number, number, F["optional"], "sent">
              : F["type"] extends "polymorphic"
                ? PolymorphicColumns<F>
                : F["type"] extends "attachment"
                  ? AttachmentColumns<F["name"], F["optional"]>
                  : F["type"] extends "public_id"
                    ? Column<"public_id", string, string, false, "generated">
                    : F["type"] extends "lock_version"
                      ? Column<"lock_version", number, number, false, "lock">
                      : never
  : never;

type PolymorphicColumns<F extends FieldShape> =
  | Column<`${F["name"]}_type`, F["values"], F["values"], F["optional"], "sent">
  | Column<`${F["name"]}_id`, number, number, F["optional"], "sent">;

type AttachmentColumns<N extends string, O extends boolean> =
  | Column<`${N}_key`, string, string, O, "read_only">
  | Column<`${N}_filename`, string, string, O, "read_only">
  | Column<`${N}_content_type`, string, string, O, "read_only">
  | Column<`${N}_size`, number, number, O, "read_only">;
