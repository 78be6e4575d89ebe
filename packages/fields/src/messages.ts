// Only @tessera/core here: packages that only need the messages import
// `@tessera/fields/messages`. The catalog of every validation message lives in core.
import { tooLongMessage, validationMessages } from "@tessera/core";

export {
  BLANK,
  fullMessage,
  humanizeFieldName,
  INVALID,
  localizeFieldMessages,
  localizeValidationMessage,
  tooLongMessage,
  validationMessages,
} from "@tessera/core";

// The validation messages (docs/errors.md), exact, in English. JSON answers carry them bare
// (field → messages); HTML prefixes the humanized field name (see fullMessage).
const english = validationMessages.english;

/** A unique field whose value another row already has; decided by the store, not here. */
export const TAKEN = english["validation.taken"];
/** A reference (or polymorphic pair) to no existing row; the store decides, except for blanks. */
export const MUST_EXIST = english["validation.must_exist"];
/** A form value for an integer or float field that is not a number. */
export const NOT_A_NUMBER = english["validation.not_a_number"];
/** An integer below -9007199254740991. */
export const TOO_SMALL = validationMessages.text(undefined, "validation.too_small", {
  minimum: Number.MIN_SAFE_INTEGER,
});
/** An integer above 9007199254740991. */
export const TOO_BIG = validationMessages.text(undefined, "validation.too_big", {
  maximum: Number.MAX_SAFE_INTEGER,
});
/** A date field value that is not a real `YYYY-MM-DD` calendar date. */
export const NOT_A_DATE = english["validation.not_a_date"];
/** A datetime field value that is not `YYYY-MM-DD HH:MM[:SS]` (space or `T`). */
export const NOT_A_DATETIME = english["validation.not_a_datetime"];
/** A time field value that is not `HH:MM[:SS]` between 00:00 and 23:59:59. */
export const NOT_A_TIME = english["validation.not_a_time"];
/** A decimal field value that is not a plain signed decimal number. */
export const NOT_A_DECIMAL = english["validation.not_a_decimal"];
/** A uuid field value that is not the hyphenated form. */
export const NOT_A_UUID = english["validation.not_a_uuid"];
/** A form value for a json field that does not parse as JSON. */
export const NOT_JSON = english["validation.not_json"];
/** A form value for an enum (or a polymorphic type) outside the listed values. */
export const NOT_IN_LIST = english["validation.not_in_list"];

/** Largest stored text value, in UTF-8 bytes. */
export const MAX_TEXT_BYTES = 2_000_000;

/**
 * A text value longer than {@link MAX_TEXT_BYTES} in UTF-8, in the shape of the other length
 * messages.
 */
export const TOO_LONG = tooLongMessage(MAX_TEXT_BYTES, "bytes");

/** `is too large (maximum is 10 MB)` for a 10 MB limit; MB here means 1024 × 1024 bytes. */
export function tooLargeMessage(maxBytes: number): string {
  const megabytes = maxBytes / (1024 * 1024);
  return validationMessages.text(undefined, "validation.too_large", {
    megabytes: Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1),
  });
}

/** `has an unsupported type (allowed: image/png, image/jpeg, ...)`. */
export function unsupportedTypeMessage(contentTypes: readonly string[]): string {
  return validationMessages.text(undefined, "validation.unsupported_type", {
    types: contentTypes.join(", "),
  });
}

/** Validation messages keyed by input name (`title`, `post_id`), every failing field at once. */
export type FieldMessages = Record<string, string[]>;

/**
 * Names a JSON value for a 400 in serde's wording, which the 400 messages echo
 * (`integer 5`, `string "abc"`, `null`), quoting at most 40 characters of a string.
 */
export function describeJsonValue(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "array";
  switch (typeof input) {
    case "string":
      return `string ${quoteShort(input, '"')}`;
    case "number":
      return Number.isInteger(input) ? `integer ${input}` : `floating point ${input}`;
    case "boolean":
      return `boolean ${input}`;
    case "object":
      return "object";
    default:
      return typeof input;
  }
}

/** At most 40 characters of `text` between `quote`s (a JSON string for `"`). */
export function quoteShort(text: string, quote: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return quote === '"' ? JSON.stringify(shown) : `${quote}${shown}${quote}`;
}
