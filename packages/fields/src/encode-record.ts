import type { Field } from "./field.js";

/** A JSON value as records are sent out. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** A row as a database driver returns it: column name → value. */
export type Row = Readonly<Record<string, unknown>>;

/**
 * The JSON form of a stored row: `id` (left out when the model has a public id), the owner's
 * columns the row has (`user_id`, or `organization_id` and `created_by`), every field's columns in declaration order (booleans as true or false, json
 * as its value, an attachment as its four columns), then `created_at` and `updated_at`.
 * `attachments` files live in their child table and are not part of the row.
 */
export function encodeRecord(fields: readonly Field[], row: Row): Record<string, JsonValue> {
  const output: Record<string, JsonValue> = {};
  if (!fields.some((field) => field.type === "public_id")) output.id = scalar(row.id);
  for (const column of OWNER_COLUMNS) {
    if (row[column] !== undefined) output[column] = scalar(row[column]);
  }
  for (const field of fields) {
    for (const column of field.columns) {
      const stored = row[column];
      if (field.type === "boolean")
        output[column] = stored === 1 || stored === 1n || stored === true;
      else if (field.type === "json") output[column] = jsonOf(stored);
      else output[column] = scalar(stored);
    }
  }
  for (const column of ["created_at", "updated_at"]) {
    if (row[column] !== undefined) output[column] = scalar(row[column]);
  }
  return output;
}

/** Every owner column a row may have, in the order a record shows them. */
const OWNER_COLUMNS = ["user_id", "organization_id", "created_by"] as const;

/** Numbers and text as they are; bigints (drivers' safe-integer mode) as numbers. */
function scalar(stored: unknown): JsonValue {
  if (typeof stored === "bigint") return Number(stored);
  if (typeof stored === "string" || typeof stored === "number" || typeof stored === "boolean") {
    return stored;
  }
  return null;
}

function jsonOf(stored: unknown): JsonValue {
  // The column's JSON validity check guarantees the text parses; if a row bypassed it, that
  // is broken storage and the parse error is the right signal.
  return typeof stored === "string" ? (JSON.parse(stored) as JsonValue) : null;
}
