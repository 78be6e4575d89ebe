// The JSON Schema (2020-12) of one field's value, in a record (output) and in a body (input),
// built from the rules the decoder applies (column-read.ts), so the two cannot drift apart.
// Every string rule is also a `pattern`: 2020-12 treats `format` as an annotation unless a
// validator opts in, and a pattern is checked everywhere.

import { TIME_TEXT } from "./calendar.js";
import type { JsonValue } from "./encode-record.js";
import type { Field } from "./field.js";
import { MAX_TEXT_BYTES } from "./messages.js";
import { DECIMAL_TEXT, FLOAT_TEXT, INTEGER_TEXT, MAX_INTEGER, MIN_INTEGER } from "./number-text.js";
import { polymorphicParts } from "./polymorphic-pair.js";
import { PUBLIC_ID_TEXT } from "./public-id.js";
import { MAX_JSON_DEPTH } from "./storable-json.js";
import { UUID_TEXT } from "./uuid.js";

/** A JSON Schema (draft 2020-12) as plain data: `JSON.stringify` gives the schema document. */
export type JsonSchema = { readonly [keyword: string]: JsonValue };

/** The shape of a calendar date: month 01–12, day 01–31 (the month's length is `format: date`). */
const DATE_SHAPE = "\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])";

const TEXT_LIMIT = `At most ${MAX_TEXT_BYTES} bytes in UTF-8. \`maxLength\` counts characters, so it is only an upper bound: text of fewer characters can still be too long (422 \`is too long (maximum is ${MAX_TEXT_BYTES} bytes)\`).`;

const ROW_ID: JsonSchema = { type: "integer", minimum: 1, maximum: MAX_INTEGER };
const INTEGER: JsonSchema = { type: "integer", minimum: MIN_INTEGER, maximum: MAX_INTEGER };
const DATE: JsonSchema = {
  type: "string",
  format: "date",
  pattern: `^${DATE_SHAPE}$`,
  description: "`YYYY-MM-DD`, a real calendar date (month lengths, leap years).",
  examples: ["2026-01-02"],
};
const DATETIME: JsonSchema = {
  type: "string",
  // The time part is the time field's own rule, less its leading `^`.
  pattern: `^${DATE_SHAPE}[ T]${TIME_TEXT.source.slice(1)}`,
  description:
    "`YYYY-MM-DD HH:MM[:SS]` with a space or `T`, a real calendar date, no time zone and no fraction of a second; stored as sent. Not `format: date-time`: RFC 3339 requires seconds and an offset.",
  examples: ["2026-01-02 03:04"],
};
const TIME: JsonSchema = {
  type: "string",
  pattern: TIME_TEXT.source,
  description:
    "`HH:MM` or `HH:MM:SS`, 00:00 to 23:59:59, no time zone. Not `format: time`: RFC 3339 requires seconds and an offset.",
  examples: ["09:30"],
};
const UUID: JsonSchema = {
  type: "string",
  format: "uuid",
  pattern: UUID_TEXT.source,
  description: "Hyphenated, any letter case; stored as sent.",
  examples: ["0f8fad5b-d9cb-469f-a165-70867728950e"],
};
const DECIMAL: JsonSchema = {
  type: "string",
  pattern: DECIMAL_TEXT.source,
  description: "A decimal number as text: optional sign, digits, optional dot and digits.",
  examples: ["12.50"],
};
/** Any JSON value but null. */
const PRESENT_JSON: JsonSchema = { type: ["object", "array", "string", "number", "boolean"] };
const BLANK: JsonSchema = {
  type: "string",
  pattern: "^\\s*$",
  description: "Blank (empty or whitespace only): read as null.",
};
const NULL: JsonSchema = { type: "null" };

/** `schema` that also takes null: one more type, and null in an `enum` list. */
function nullable(schema: JsonSchema): JsonSchema {
  const { type, enum: values } = schema;
  return {
    ...schema,
    ...(typeof type === "string" ? { type: [type, "null"] } : {}),
    ...(Array.isArray(values) ? { enum: [...values, null] } : {}),
  };
}

const described = (schema: JsonSchema, description: string): JsonSchema => ({
  ...schema,
  description,
});

/** One column's value as a record holds it in JSON (see `encodeRecord`). */
function outputValue(field: Field, column: string): JsonSchema {
  switch (field.type) {
    case "string":
    case "text":
      return { type: "string" };
    case "rich_text":
      return { type: "string", description: "Sanitized HTML." };
    case "integer":
      return INTEGER;
    case "float":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "date":
      return DATE;
    case "datetime":
      return DATETIME;
    case "time":
      return TIME;
    case "decimal":
      return DECIMAL;
    case "uuid":
      return UUID;
    case "references":
      return described(ROW_ID, `The id of a ${field.args[0]}.`);
    case "enum":
      return { type: "string", enum: field.args };
    case "json":
      return field.optional ? { description: "Any JSON value." } : PRESENT_JSON;
    case "public_id":
      return {
        type: "string",
        pattern: PUBLIC_ID_TEXT.source,
        examples: ["V1StGXR8_Z5jdHi6B-myTw"],
      };
    case "lock_version":
      return { type: "integer", minimum: 0, maximum: MAX_INTEGER };
    case "polymorphic":
      return column.endsWith("_type")
        ? { type: "string", enum: field.args }
        : described(ROW_ID, `The id of the ${field.args.join(" or ")}.`);
    case "attachment":
      return column.endsWith("_size")
        ? { type: "integer", minimum: 0, description: "Bytes." }
        : { type: "string" };
    case "attachments":
      return {};
  }
}

/**
 * The record's columns of `field` with their schemas, in encodeRecord's order: none for
 * `attachments` (files live in a child table), four for an attachment, two for a polymorphic.
 * An optional field's columns also take null; so do an attachment's until a file is uploaded.
 */
export function recordColumnSchemas(field: Field): ReadonlyArray<readonly [string, JsonSchema]> {
  return field.columns.map((column) => {
    const schema = outputValue(field, column);
    return [column, field.optional ? nullable(schema) : schema] as const;
  });
}

/** A present, non-null input value of `field`, as readJsonValue accepts it. */
function inputValue(field: Field): JsonSchema {
  switch (field.type) {
    case "string":
    case "text":
    case "rich_text": {
      const text: JsonSchema = { type: "string", maxLength: MAX_TEXT_BYTES };
      const rule =
        field.type === "rich_text"
          ? `HTML, sanitized before it is stored. ${TEXT_LIMIT}`
          : TEXT_LIMIT;
      // A blank optional value is null; a blank required one is a 422 `can't be blank`.
      if (field.optional) return { ...text, description: rule };
      return {
        ...text,
        pattern: "\\S",
        description:
          field.type === "rich_text"
            ? `${rule} Must show some text once tags are stripped (422 \`can't be blank\`).`
            : `${rule} Not blank.`,
      };
    }
    case "decimal":
      return { ...DECIMAL, maxLength: MAX_TEXT_BYTES };
    case "json":
      return {
        ...(field.optional ? {} : PRESENT_JSON),
        description: `Any JSON value${field.optional ? " (null clears it)" : " but null"}, nested at most ${MAX_JSON_DEPTH} levels deep, at most ${MAX_TEXT_BYTES} bytes once written as JSON text (422 \`is too long\`).`,
      };
    case "references":
      return described(
        ROW_ID,
        `The id of one of your ${field.references?.table ?? "records of the type sent beside it"}: another user's or a missing one is a 422 \`must exist\`.`,
      );
    case "lock_version":
      return described(
        INTEGER,
        "The version this change is based on: a stale one is a 409 and changes nothing.",
      );
    default:
      return outputValue(field, field.columns[0] ?? field.name);
  }
}

/** Text an optional number field reads as its number. */
function numberText(field: Field): JsonSchema | undefined {
  switch (field.type) {
    case "integer":
    case "references":
      return {
        type: "string",
        pattern: INTEGER_TEXT.source,
        description: "Integer text, read as the number (same range).",
      };
    case "float":
      return { type: "string", pattern: FLOAT_TEXT.source, description: "Number text." };
    default:
      return undefined;
  }
}

/**
 * The schema of `field`'s value in a create or update body (the key `field.columns[0]`; a
 * polymorphic field has two keys, see {@link inputKeySchemas}). A required field takes its
 * JSON type only (null is a 400); an optional one also null, a blank string (null), and for
 * numbers, number text.
 */
export function inputValueSchema(field: Field): JsonSchema {
  const value = inputValue(field);
  if (!field.optional || field.type === "json") return value;
  if (field.type === "string" || field.type === "text" || field.type === "rich_text") {
    return nullable(value);
  }
  const text = numberText(field);
  return { anyOf: [value, ...(text ? [text] : []), BLANK, NULL] };
}

/** The body keys of `field` with their schemas: both columns of a polymorphic, else one. */
export function inputKeySchemas(field: Field): ReadonlyArray<readonly [string, JsonSchema]> {
  const parts = field.type === "polymorphic" ? polymorphicParts(field) : [field];
  return parts.map((part) => [part.columns[0] ?? part.name, inputValueSchema(part)] as const);
}
