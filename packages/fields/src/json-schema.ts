import type { Field, FieldType, Model } from "./field.js";
import { inputKeySchemas, type JsonSchema, recordColumnSchemas } from "./json-schema-values.js";
import { MAX_INTEGER } from "./number-text.js";
import { ownerKindOf } from "./record-owner.js";

export type { JsonSchema } from "./json-schema-values.js";

/** The JSON Schema dialect of every schema here. */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** `created_at` and `updated_at`: UTC text as `formatTimestamp` of @tessera/core writes it. */
const TIMESTAMP: JsonSchema = {
  type: "string",
  pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$",
  description: "UTC, `YYYY-MM-DD HH:MM:SS`.",
  examples: ["2026-01-02 03:04:05"],
};
const ROW_ID: JsonSchema = { type: "integer", minimum: 1, maximum: MAX_INTEGER };

/** Types whose value never comes from a JSON body: files have their own routes, ids are made. */
const NOT_FROM_BODIES: ReadonlySet<FieldType> = new Set(["attachment", "attachments", "public_id"]);

/** Options of {@link recordJsonSchema}. */
export interface RecordSchemaOptions {
  /**
   * The rows have their owner's columns (default true, as `createTableSql` makes them and the
   * record routes need): the record then carries `user_id`, or an organization's
   * `organization_id` and `created_by` (null once its creator's account is gone).
   */
  readonly ownedByUser?: boolean | undefined;
}

/**
 * The JSON Schema of a record as `encodeRecord` writes it: `id` (left out when the model has a
 * public id), the owner's columns when owned, every field's columns (an attachment's four, a
 * polymorphic's two; `attachments` files are not part of the record), `created_at` and
 * `updated_at`. Every key is always present (null for an empty optional column) and there are
 * no others. Length limits are input rules and stay on the body schemas.
 */
export function recordJsonSchema(model: Model, options: RecordSchemaOptions = {}): JsonSchema {
  const hasPublicId = model.fields.some((field) => field.type === "public_id");
  const columns: Array<readonly [string, JsonSchema]> = [
    ...(hasPublicId ? [] : [["id", ROW_ID] as const]),
    ...((options.ownedByUser ?? true) ? ownerColumnSchemas(model) : []),
    ...model.fields.flatMap(recordColumnSchemas),
    ["created_at", TIMESTAMP],
    ["updated_at", TIMESTAMP],
  ];
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title: model.name,
    type: "object",
    properties: Object.fromEntries(columns),
    required: columns.map(([column]) => column),
    additionalProperties: false,
  };
}

/** The owner's columns of a record: `user_id`, or `organization_id` and `created_by`. */
function ownerColumnSchemas(model: Model): Array<readonly [string, JsonSchema]> {
  if (ownerKindOf(model) === "user") return [["user_id", ROW_ID]];
  return [
    ["organization_id", ROW_ID],
    ["created_by", { ...ROW_ID, type: ["integer", "null"] }],
  ];
}

/**
 * The JSON Schema of a create body as `decodeJsonCreate` reads it. Required: every required
 * field's keys (a boolean's missing value is false, so booleans never are). Keys it does not
 * list are ignored, so `additionalProperties` is true: `id`, `user_id`, `public_id`,
 * `lock_version`, attachment columns and any other key change nothing.
 *
 * What a schema cannot say is left to the server's 422: a text's limit in UTF-8 bytes
 * (`maxLength` counts characters: see the descriptions), rich_text that is blank once tags are
 * stripped, an integer text out of range, a datetime's day past its month's end, a reference
 * to no row of yours (`must exist`), a `^` value already taken, and one half of an optional
 * polymorphic pair without the other. A string (or a json value's string or key) holding a
 * lone surrogate or a NUL is a 400 the schema does not state either.
 */
export function createJsonSchema(model: Model): JsonSchema {
  const fields = model.fields.filter(
    (field) => !NOT_FROM_BODIES.has(field.type) && field.type !== "lock_version",
  );
  const required = fields
    .filter((field) => !field.optional && field.type !== "boolean")
    .flatMap((field) => field.columns);
  return bodySchema(`${model.name} create`, fields, required);
}

/**
 * The JSON Schema of an update body as `decodeJsonUpdate` reads it: any subset of the create
 * keys (a missing key keeps its column; null or a blank string clears an optional one) and
 * `lock_version` when the model has one. Other keys are ignored. The limits a schema cannot
 * state are those of {@link createJsonSchema}. A polymorphic pair is written together: one
 * half sent with a value and the other not is a 422 `must exist`.
 */
export function updateJsonSchema(model: Model): JsonSchema {
  const fields = model.fields.filter((field) => !NOT_FROM_BODIES.has(field.type));
  return bodySchema(`${model.name} update`, fields, []);
}

function bodySchema(
  title: string,
  fields: readonly Field[],
  required: readonly string[],
): JsonSchema {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title,
    type: "object",
    properties: Object.fromEntries(fields.flatMap(inputKeySchemas)),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: true,
  };
}
