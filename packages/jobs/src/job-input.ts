import {
  type ColumnValue,
  decodeJsonCreate,
  encodeRecord,
  type Field,
  type PreparedRichText,
  type Row,
} from "@tessera/fields";
import { badRequest, JSON_BODY_FAILURE_PREFIX, validationFailed } from "@tessera/http";
import type { JobDefinition, JobInput } from "./job-definition.js";

/**
 * A decoded job input, or the refusal with its ready response: a 400 (message starting with the
 * deserialize prefix `Failed to deserialize the JSON body into the target type: `) or a 422 with `fields`.
 */
export type JobInputResult =
  | { readonly ok: true; readonly value: JobInput }
  | {
      readonly ok: false;
      readonly status: 400;
      readonly message: string;
      readonly response: Response;
    }
  | {
      readonly ok: false;
      readonly status: 422;
      readonly fields: Readonly<Record<string, readonly string[]>>;
      readonly response: Response;
    };

/**
 * `decodeJsonCreate` of `@tessera/fields` on the input fields, with the refusal's response
 * built; the input comes out in its JSON form, exactly as a store will give it back.
 */
export function decodeJobInput(
  inputs: readonly Field[],
  body: unknown,
  richText?: PreparedRichText,
): JobInputResult {
  const decoded = decodeJsonCreate(inputs, body, richText ? { richText } : {});
  if (decoded.ok) return { ok: true, value: fromColumns(inputs, decoded.value.values) };
  if (decoded.status === 422) {
    return {
      ok: false,
      status: 422,
      fields: decoded.fields,
      response: validationFailed(decoded.fields),
    };
  }
  const message = `${JSON_BODY_FAILURE_PREFIX}${decoded.reason}`;
  return { ok: false, status: 400, message, response: badRequest(message) };
}

/**
 * The column values that store a decoded input, keyed by column: booleans as 0 or 1, json as
 * its text, the rest as they are. For stores; the inverse of {@link inputFromColumns}.
 * @throws {TypeError} for a value of the wrong kind: the input did not come from `decodeInput`.
 */
export function inputToColumns(
  definition: JobDefinition,
  input: JobInput,
): Record<string, ColumnValue> {
  const columns: Record<string, ColumnValue> = {};
  for (const field of definition.inputs) {
    const value = input[field.name];
    const column = columnValue(field, value);
    if (column === undefined) {
      throw new TypeError(
        `input ${field.name} of job ${definition.name} is not a ${field.type} value: decode it with decodeInput first`,
      );
    }
    columns[field.name] = column;
  }
  return columns;
}

/**
 * A job's input from its stored columns (a database row, extra columns ignored), in its JSON
 * form: `encodeRecord` of `@tessera/fields` (booleans true or false, json parsed).
 */
export function inputFromColumns(definition: JobDefinition, row: Row): JobInput {
  return fromColumns(definition.inputs, row);
}

function fromColumns(inputs: readonly Field[], row: Row): JobInput {
  const encoded = encodeRecord(inputs, row);
  return Object.fromEntries(inputs.map((field) => [field.name, encoded[field.name] ?? null]));
}

/** Undefined when `value` cannot be the field's value. */
function columnValue(field: Field, value: JobInput[string] | undefined): ColumnValue | undefined {
  if (field.type === "boolean") return typeof value === "boolean" ? Number(value) : undefined;
  if (value === null || value === undefined) return field.optional ? null : undefined;
  if (field.type === "json") return JSON.stringify(value);
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}
