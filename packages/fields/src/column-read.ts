// Hand-written rather than zod schemas: failures are split between a 400 (wrong JSON type,
// before validation) and a 422 (every field at once) with exact texts, and the same rules must
// also read form text. Mapping zod issues back onto that would be longer than the rules
// themselves, and slower (see bench/decode.bench.ts).

import { unstorableText } from "@tessera/core";
import { isCalendarDate, isDateTime, isTimeOfDay } from "./calendar.js";
import type { ColumnValue } from "./decode-result.js";
import type { Field } from "./field.js";
import {
  BLANK,
  describeJsonValue,
  INVALID,
  MUST_EXIST,
  NOT_A_DATE,
  NOT_A_DATETIME,
  NOT_A_DECIMAL,
  NOT_A_NUMBER,
  NOT_A_TIME,
  NOT_A_UUID,
  NOT_IN_LIST,
  NOT_JSON,
  quoteShort,
  TOO_LONG,
} from "./messages.js";
import {
  integerRangeMessage,
  isDecimalText,
  MAX_INTEGER,
  parseFloatText,
  parseIntegerText,
} from "./number-text.js";
import { isBlankRichText, richTextSanitizerOf } from "./rich-text.js";
import type { PreparedRichText } from "./rich-text-prepare.js";
import { OUT_OF_RANGE, unstorableJson } from "./storable-json.js";
import { fitsTextLimit } from "./text-size.js";
import { isUuidText } from "./uuid.js";

/** What one input value gave: the column value, a 400 reason, or 422 messages. */
export type ColumnRead =
  | { readonly ok: true; readonly value: ColumnValue }
  | { readonly ok: false; readonly status: 400; readonly reason: string }
  | { readonly ok: false; readonly status: 422; readonly messages: readonly string[] };

const NULL: ColumnRead = { ok: true, value: null };

function value(value: ColumnValue): ColumnRead {
  return { ok: true, value };
}

function refused(message: string): ColumnRead {
  return { ok: false, status: 422, messages: [message] };
}

function sized(text: string): ColumnRead {
  return fitsTextLimit(text) ? value(text) : refused(TOO_LONG);
}

/** Form values an unchecked or cleared checkbox may send; anything else means checked. */
const UNCHECKED: ReadonlySet<string> = new Set(["", "0", "false", "off"]);

/** Is this a blank string: empty or whitespace only. */
export function isBlank(input: unknown): boolean {
  return typeof input === "string" && input.trim() === "";
}

/**
 * A text-valued type's string, from JSON or from a form: one rule set for both paths. A
 * rich_text value found in `richText` was sanitized ahead, off the caller's turn.
 */
function readText(field: Field, text: string, richText?: PreparedRichText): ColumnRead {
  switch (field.type) {
    case "rich_text": {
      // The raw size first: no sanitizing of markup over the limit.
      if (!fitsTextLimit(text)) return refused(TOO_LONG);
      const html = richText?.get(text) ?? richTextSanitizerOf(field).sanitize(text);
      if (isBlankRichText(html)) return field.optional ? NULL : refused(BLANK);
      return sized(html);
    }
    case "date":
      return isCalendarDate(text) ? value(text) : refused(NOT_A_DATE);
    case "datetime":
      return isDateTime(text) ? value(text) : refused(NOT_A_DATETIME);
    case "time":
      return isTimeOfDay(text) ? value(text) : refused(NOT_A_TIME);
    case "decimal":
      return isDecimalText(text) ? sized(text) : refused(NOT_A_DECIMAL);
    case "uuid":
      return isUuidText(text) ? value(text) : refused(NOT_A_UUID);
    default:
      return text.trim() === "" ? refused(BLANK) : sized(text);
  }
}

function rangeChecked(field: Field, number: number): ColumnRead {
  if (field.type === "references") {
    // Row ids start at 1 and stay below 2^53: anything else cannot exist, no lookup needed.
    return number >= 1 && number <= MAX_INTEGER ? value(number) : refused(MUST_EXIST);
  }
  const message = integerRangeMessage(number);
  return message === undefined ? value(number) : refused(message);
}

/**
 * Reads a JSON value that is present for `field` (the key `key`): wrong JSON types are a 400,
 * values of the right type that break a rule a 422. Optional fields take null and blank strings
 * as null and accept a string that parses as their type.
 */
export function readJsonValue(
  field: Field,
  key: string,
  input: unknown,
  richText?: PreparedRichText,
): ColumnRead {
  if (input === null) return field.optional ? NULL : wrongType(field, key, input);
  // A JSON string is a json field's value, even a blank one.
  if (field.optional && field.type !== "json" && isBlank(input)) return NULL;
  // JSON.parse reads 1e400 as Infinity, which a column would keep as null or fail on.
  if (typeof input === "number" && !Number.isFinite(input)) return outOfRange(key);
  // A NUL or a lone surrogate has no place in any engine's text: refused before the type's
  // own rules. A json value's strings (and keys) are checked by unstorableJson below.
  const text = typeof input === "string" && field.type !== "json" && unstorableText(input);
  if (text) return { ok: false, status: 400, reason: `${key}: invalid value: ${text}` };
  switch (field.type) {
    case "integer":
    case "references":
    case "lock_version":
      if (typeof input === "number") {
        if (Number.isInteger(input)) return rangeChecked(field, input === 0 ? 0 : input);
        return wrongType(field, key, input);
      }
      if (typeof input === "string" && field.optional) {
        const number = parseIntegerText(input);
        return number === undefined ? unparsable(field, key, input) : rangeChecked(field, number);
      }
      return wrongType(field, key, input);
    case "float":
      if (typeof input === "number") return value(input === 0 ? 0 : input);
      if (typeof input === "string" && field.optional) {
        const number = parseFloatText(input);
        return number === undefined ? unparsable(field, key, input) : value(number);
      }
      return wrongType(field, key, input);
    case "boolean":
      return typeof input === "boolean" ? value(input ? 1 : 0) : wrongType(field, key, input);
    case "json": {
      const problem = unstorableJson(input);
      if (problem) return { ok: false, status: 400, reason: `${key}: ${problem}` };
      return sized(JSON.stringify(input));
    }
    case "enum":
      if (typeof input !== "string") return wrongType(field, key, input);
      return field.args.includes(input) ? value(input) : unknownVariant(field, key, input);
    default:
      return typeof input === "string"
        ? readText(field, input, richText)
        : wrongType(field, key, input);
  }
}

/**
 * Reads form text for `field`. Callers turn a blank optional value into null first; checkboxes
 * read as 0 for `UNCHECKED` values and 1 otherwise. Never a 400: forms have no JSON types.
 */
export function readFormText(field: Field, text: string, richText?: PreparedRichText): ColumnRead {
  // Browsers' form bodies decode to valid Unicode, so a lone surrogate only comes from a
  // hand-built form input; a NUL (`%00`) from one, or from text pasted into a field.
  if (unstorableText(text)) return refused(INVALID);
  switch (field.type) {
    case "boolean":
      return value(UNCHECKED.has(text) ? 0 : 1);
    case "integer":
    case "lock_version": {
      const number = parseIntegerText(text);
      return number === undefined ? refused(NOT_A_NUMBER) : rangeChecked(field, number);
    }
    case "references": {
      if (text.trim() === "") return refused(MUST_EXIST);
      const number = parseIntegerText(text);
      return number === undefined ? refused(NOT_A_NUMBER) : rangeChecked(field, number);
    }
    case "float": {
      const number = parseFloatText(text);
      return number === undefined ? refused(NOT_A_NUMBER) : value(number);
    }
    case "json": {
      const parsed = parseJsonText(text);
      if (parsed === undefined) return refused(NOT_JSON);
      if (parsed.value === null) return field.optional ? NULL : refused(BLANK);
      if (unstorableJson(parsed.value)) return refused(NOT_JSON);
      return sized(JSON.stringify(parsed.value));
    }
    case "enum":
      return field.args.includes(text) ? value(text) : refused(NOT_IN_LIST);
    default:
      return readText(field, text, richText);
  }
}

function outOfRange(key: string): ColumnRead {
  return { ok: false, status: 400, reason: `${key}: ${OUT_OF_RANGE}` };
}

function parseJsonText(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

const EXPECTED: Partial<Record<Field["type"], string>> = {
  integer: "an integer",
  references: "an integer",
  lock_version: "an integer",
  float: "a number",
  boolean: "a boolean",
  json: "a JSON value other than null",
};

/** `title: invalid type: number 5, expected a string`: serde's wording, which the 400s echo. */
export function wrongType(field: Field, key: string, input: unknown): ColumnRead {
  const expected = EXPECTED[field.type] ?? "a string";
  return {
    ok: false,
    status: 400,
    reason: `${key}: invalid type: ${describeJsonValue(input)}, expected ${expected}`,
  };
}

function unparsable(field: Field, key: string, input: string): ColumnRead {
  const expected = EXPECTED[field.type] ?? "a string";
  return {
    ok: false,
    status: 400,
    reason: `${key}: invalid value: ${describeJsonValue(input)}, expected ${expected}`,
  };
}

function unknownVariant(field: Field, key: string, input: string): ColumnRead {
  const expected = field.args.map((name) => `\`${name}\``).join(", ");
  return {
    ok: false,
    status: 400,
    reason: `${key}: unknown variant ${quoteShort(input, "`")}, expected one of ${expected}`,
  };
}
