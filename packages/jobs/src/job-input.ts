import { badRequest, JSON_BODY_FAILURE_PREFIX, validationFailed } from "@tessera/http";
import type { JobInput, JobInputColumn, JobInputColumns } from "./job-definition.js";

/**
 * A decoded job input, or the refusal with its ready response: a 400 (message starting with the
 * spec's `Failed to deserialize the JSON body into the target type: `) or a 422 with `fields`.
 */
export type JobInputResult<I> =
  | { readonly ok: true; readonly value: I }
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

const MAX_INTEGER = Number.MAX_SAFE_INTEGER;
const INTEGER_TEXT = /^[+-]?\d+$/;
const REAL_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

type Read =
  | { readonly ok: true; readonly value: string | number | null }
  | { readonly ok: false; readonly status: 400; readonly reason: string }
  | { readonly ok: false; readonly status: 422; readonly message: string };

/**
 * The spec's JSON create semantics for the three column types. Required: the key must be there
 * with the right JSON type (400 otherwise); blank text is `can't be blank`. Optional: missing,
 * null or blank is null, and a string that parses as the number type is accepted.
 */
export function decodeJobInput<I extends JobInput>(
  columns: JobInputColumns,
  body: unknown,
): JobInputResult<I> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return refuse400(`invalid type: ${describe(body)}, expected a JSON object`);
  }
  const input: Record<string, string | number | null> = {};
  const fields: Record<string, string[]> = {};
  for (const [name, column] of Object.entries(columns)) {
    const read = readColumn(name, column, (body as Record<string, unknown>)[name]);
    if (!read.ok && read.status === 400) return refuse400(read.reason);
    if (!read.ok) fields[name] = [read.message];
    else input[name] = read.value;
  }
  if (Object.keys(fields).length > 0) {
    return { ok: false, status: 422, fields, response: validationFailed(fields) };
  }
  return { ok: true, value: input as I };
}

function readColumn(name: string, column: JobInputColumn, value: unknown): Read {
  const optional = column.optional === true;
  if (value === undefined) {
    return optional ? { ok: true, value: null } : wrong(`missing field \`${name}\``);
  }
  if (value === null) return optional ? { ok: true, value: null } : wrongType(name, column, value);
  if (optional && typeof value === "string" && value.trim() === "")
    return { ok: true, value: null };
  if (column.type === "TEXT") {
    if (typeof value !== "string") return wrongType(name, column, value);
    if (value.trim() === "") return invalid("can't be blank");
    return checked(value, column.validate?.(value));
  }
  let number: number;
  if (typeof value === "number") number = value;
  else if (typeof value === "string" && optional) {
    const pattern = column.type === "INTEGER" ? INTEGER_TEXT : REAL_TEXT;
    number = pattern.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(number)) {
      return wrong(`${name}: invalid value: ${describe(value)}, expected ${expected(column)}`);
    }
  } else return wrongType(name, column, value);
  if (column.type === "INTEGER") {
    if (!Number.isInteger(number)) return wrongType(name, column, value);
    if (number > MAX_INTEGER) return invalid(`must be less than or equal to ${MAX_INTEGER}`);
    if (number < -MAX_INTEGER) return invalid(`must be greater than or equal to -${MAX_INTEGER}`);
  }
  // -0 would come back from SQLite as 0: store what will be read.
  const stored = number === 0 ? 0 : number;
  return checked(stored, column.validate?.(stored));
}

function checked(value: string | number, message: string | undefined): Read {
  return message === undefined ? { ok: true, value } : invalid(message);
}

function invalid(message: string): Read {
  return { ok: false, status: 422, message };
}

function wrong(reason: string): Read {
  return { ok: false, status: 400, reason };
}

function wrongType(name: string, column: JobInputColumn, value: unknown): Read {
  return wrong(`${name}: invalid type: ${describe(value)}, expected ${expected(column)}`);
}

function expected(column: JobInputColumn): string {
  return column.type === "TEXT"
    ? "a string"
    : column.type === "INTEGER"
      ? "an integer"
      : "a number";
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return `string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === "number") return `number ${value}`;
  return typeof value === "object" ? "object" : typeof value;
}

function refuse400<I>(reason: string): JobInputResult<I> {
  const message = `${JSON_BODY_FAILURE_PREFIX}${reason}`;
  return { ok: false, status: 400, message, response: badRequest(message) };
}
