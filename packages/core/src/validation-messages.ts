import { defineMessages, type Locale, type MessageIdOf } from "./messages.js";

// The validation messages of every package (docs/errors.md), in one catalog in the package
// every other depends on: @tessera/fields writes most of them, @tessera/bearer and
// @tessera/accounts a few, and a 422's `fields` mixes them.

/**
 * The validation messages in English (the spec's exact strings), bare: JSON answers carry them
 * as they are (`{"title": ["can't be blank"]}`), HTML forms after the field's name
 * (`validation.full_message`).
 */
export const validationMessages = defineMessages({
  "validation.blank": "can't be blank",
  "validation.invalid": "is invalid",
  "validation.taken": "has already been taken",
  "validation.must_exist": "must exist",
  "validation.not_a_number": "is not a number",
  "validation.too_small": "must be greater than or equal to {minimum}",
  "validation.too_big": "must be less than or equal to {maximum}",
  "validation.not_a_date": "is not a valid date",
  "validation.not_a_datetime": "is not a valid date and time",
  "validation.not_a_time": "is not a valid time",
  "validation.not_a_decimal": "is not a decimal number",
  "validation.not_a_uuid": "is not a valid UUID",
  "validation.not_json": "is not valid JSON",
  "validation.not_in_list": "is not included in the list",
  "validation.too_short_characters": "is too short (minimum is {minimum} characters)",
  "validation.too_long_characters": "is too long (maximum is {maximum} characters)",
  "validation.too_long_bytes": "is too long (maximum is {maximum} bytes)",
  "validation.too_large": "is too large (maximum is {megabytes} MB)",
  "validation.unsupported_type": "has an unsupported type (allowed: {types})",
  "validation.full_message": "{field} {message}",
  "validation.summary.one": "{count} error stopped this form",
  "validation.summary.other": "{count} errors stopped this form",
});

/** An id of {@link validationMessages}. */
export type ValidationMessageId = MessageIdOf<typeof validationMessages>;

const english = validationMessages.english;

/** A required value that is missing, empty or whitespace only. */
export const BLANK = english["validation.blank"];
/** Generic refusal (for example an email of the wrong shape). */
export const INVALID = english["validation.invalid"];

/** `is too long (maximum is 100 characters)`: the shape of every length message. */
export function tooLongMessage(
  maximum: number,
  unit: "characters" | "bytes" = "characters",
): string {
  const id = unit === "bytes" ? "validation.too_long_bytes" : "validation.too_long_characters";
  return validationMessages.text(undefined, id, { maximum });
}

// Validation runs where there is no request (codecs; a store deciding "has already been
// taken"), and its English messages are data that GraphQL, logs and tests read, so they are
// translated where they leave for a person. Each one was written from a template above, so
// reading it back against the templates gives its id and values exactly.
const readers = Object.entries(english)
  .filter(([id]) => id !== "validation.full_message" && !id.startsWith("validation.summary."))
  .map(([id, template]) => {
    const names: string[] = [];
    const source = template
      .split(/(\{\w+\})/)
      .map((piece) => {
        const hole = /^\{(\w+)\}$/.exec(piece);
        if (!hole) return piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(hole[1] as string);
        return "(.+?)";
      })
      .join("");
    return { id: id as ValidationMessageId, names, pattern: new RegExp(`^${source}$`) };
  });

/**
 * A validation message written in English by any package, in `locale`. A message that no
 * template of {@link validationMessages} wrote (an app's own validator's) comes back unchanged.
 */
export function localizeValidationMessage(message: string, locale: Locale | undefined): string {
  if (locale === undefined || Object.keys(locale.catalog).length === 0) return message;
  for (const { id, names, pattern } of readers) {
    const match = pattern.exec(message);
    if (!match) continue;
    const params = Object.fromEntries(names.map((name, index) => [name, match[index + 1] ?? ""]));
    return validationMessages.text(locale, id, params);
  }
  return message;
}

/** A 422's `fields` (field name → messages) with every message in `locale`. */
export function localizeFieldMessages(
  fields: Readonly<Record<string, readonly string[]>>,
  locale: Locale | undefined,
): Record<string, string[]> {
  const localized: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(fields)) {
    localized[field] = messages.map((message) => localizeValidationMessage(message, locale));
  }
  return localized;
}

/**
 * `Title can't be blank`: one message after the field's name as a person reads it (`title` →
 * `Title`, see {@link humanizeFieldName}), in `locale`.
 */
export function fullMessage(name: string, message: string, locale?: Locale): string {
  return validationMessages.text(locale, "validation.full_message", {
    field: humanizeFieldName(name),
    message: localizeValidationMessage(message, locale),
  });
}

/**
 * The field name as HTML forms show it: underscores to spaces, a trailing `_id` dropped, first
 * letter capital (`publish_on` → `Publish on`, `post_id` → `Post`).
 */
export function humanizeFieldName(name: string): string {
  const words = name.replace(/_id$/, "").replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The language's plural rules; English's for a tag Intl cannot read (an app's own `test`). */
function pluralRulesOf(tag: string): Intl.PluralRules {
  try {
    return new Intl.PluralRules(tag);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return new Intl.PluralRules("en");
  }
}

/**
 * The heading of a refused form's error summary, `1 error stopped this form`, in `locale`: the
 * `validation.summary.one` or `.other` template as the language's plural rules choose (French
 * says "one" for 0 and 1 too).
 */
export function errorSummaryHeading(count: number, locale?: Locale): string {
  const tag = locale?.tag ?? "en";
  let rules = pluralRules.get(tag);
  if (!rules) {
    rules = pluralRulesOf(tag);
    pluralRules.set(tag, rules);
  }
  const id = rules.select(count) === "one" ? "validation.summary.one" : "validation.summary.other";
  return validationMessages.text(locale, id, { count });
}
