// fast-check arbitraries for property-testing models built on @tessera/fields. A subpath of
// its own so that fast-check stays an optional peer dependency of the main entry.

import fc, { type Arbitrary } from "fast-check";
import type { JsonValue } from "./encode-record.js";
import type { Field } from "./field.js";
import {
  BLANK,
  NOT_A_DATE,
  NOT_A_DATETIME,
  NOT_A_DECIMAL,
  NOT_A_NUMBER,
  NOT_A_TIME,
  NOT_A_UUID,
  NOT_IN_LIST,
  NOT_JSON,
  TOO_BIG,
  TOO_SMALL,
} from "./messages.js";
import { MAX_INTEGER, MIN_INTEGER } from "./number-text.js";

/** A value a field refuses, as text (form input or JSON string), and the one message it earns. */
export interface InvalidCase {
  readonly text: string;
  readonly message: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Real calendar dates `YYYY-MM-DD`, years 0000–9999 (built with `Date`, not this package). */
export const dateText: Arbitrary<string> = fc
  .date({
    min: new Date("0000-01-01T00:00:00Z"),
    max: new Date("9999-12-31T00:00:00Z"),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 10));

/** `HH:MM` or `HH:MM:SS` from 00:00 to 23:59:59. */
export const timeText: Arbitrary<string> = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.option(fc.integer({ min: 0, max: 59 })),
  )
  .map(([h, m, s]) => `${pad(h)}:${pad(m)}${s === null ? "" : `:${pad(s)}`}`);

/** A date, a space or `T`, and a time. */
export const datetimeText: Arbitrary<string> = fc
  .tuple(dateText, fc.constantFrom(" ", "T"), timeText)
  .map((parts) => parts.join(""));

/** Optional sign, digits, optional dot and digits. */
export const decimalText: Arbitrary<string> = fc.stringMatching(/^[+-]?\d{1,24}(\.\d{1,12})?$/);

/** Hyphenated UUIDs in mixed letter case. */
export const uuidText: Arbitrary<string> = fc.mixedCase(fc.uuid());

/** Integers within ±9007199254740991. */
export const integerInRange: Arbitrary<number> = fc.integer({ min: MIN_INTEGER, max: MAX_INTEGER });

/** Integers outside ±9007199254740991 as digit strings, with the one message each earns. */
export const integerOutOfRange: Arbitrary<InvalidCase> = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }))
  .map(([negative, n]) =>
    negative ? { text: `-${n}`, message: TOO_SMALL } : { text: `${n}`, message: TOO_BIG },
  );

/** Any JSON value except null, as it comes back from a JSON round trip (no `-0`). */
export const jsonValue: Arbitrary<JsonValue> = fc
  .jsonValue({ maxDepth: 3 })
  .filter((value) => value !== null)
  .map((value) => JSON.parse(JSON.stringify(value)) as JsonValue);

/**
 * HTML as a rich_text sanitizer leaves it (safe-listed tags, text escaped), with some visible
 * text: what `@tessera/sanitizer` gives back unchanged. Written so here rather than sanitized,
 * so that the arbitraries need no HTML parser.
 */
export const richTextHtml: Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom("p", "strong", "em", "li", "h2", "blockquote", "code", "a"),
      fc.string({ minLength: 1, maxLength: 20 }),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) =>
    parts
      .map(([tag, text]) => {
        const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
        return tag === "a"
          ? `<a href="https://example.com/">${escaped}</a>`
          : `<${tag}>${escaped}</${tag}>`;
      })
      .join(""),
  )
  .filter((html) => html.replace(/<[^>]*>/g, "").trim() !== "");

/**
 * Canonical JSON input for one field: its input keys with values it accepts and gives back
 * unchanged through decode, store and encode. Empty for fields that take no JSON input
 * (attachments, public id, lock version).
 */
export function validInput(field: Field): Arbitrary<Record<string, JsonValue>> {
  const key = field.columns[0] ?? field.name;
  const one = (value: Arbitrary<JsonValue>) => value.map((v) => ({ [key]: v }));
  switch (field.type) {
    case "string":
    case "text":
      return one(fc.string({ minLength: 1 }).filter((text) => text.trim() !== ""));
    case "rich_text":
      return one(richTextHtml);
    case "integer":
      return one(integerInRange);
    case "float":
      return one(fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)));
    case "boolean":
      return one(fc.boolean());
    case "date":
      return one(dateText);
    case "datetime":
      return one(datetimeText);
    case "time":
      return one(timeText);
    case "decimal":
      return one(decimalText);
    case "uuid":
      return one(uuidText);
    case "references":
      return one(fc.integer({ min: 1, max: MAX_INTEGER }));
    case "json":
      return one(jsonValue);
    case "enum":
      return one(fc.constantFrom(...field.args));
    case "polymorphic": {
      const [typeKey = "", idKey = ""] = field.columns;
      return fc
        .tuple(fc.constantFrom(...field.args), fc.integer({ min: 1, max: MAX_INTEGER }))
        .map(([type, id]) => ({ [typeKey]: type, [idKey]: id }));
    }
    default:
      return fc.constant({});
  }
}

/** A valid JSON create body for a model: every field's canonical input (optional ones may be null). */
export function validBody(fields: readonly Field[]): Arbitrary<Record<string, JsonValue>> {
  const parts = fields.map((field) => {
    const input = validInput(field);
    if (!field.optional) return input;
    const nulls = Object.fromEntries(field.columns.map((column) => [column, null]));
    return fc.oneof(input, fc.constant(nulls));
  });
  return fc.tuple(...parts).map((objects) => Object.assign({}, ...objects));
}

/**
 * Text a field refuses (sent as a JSON string where the field's JSON type is a string, or as
 * form input), each with the single message it earns. Undefined for types that refuse no text.
 */
export function invalidText(field: Field): Arbitrary<InvalidCase> | undefined {
  const cases = (message: string, texts: Arbitrary<string>) =>
    texts.map((text) => ({ text, message }));
  const junk = (oracle: RegExp) =>
    fc.string({ maxLength: 30 }).filter((text) => text.trim() !== "" && !oracle.test(text));
  switch (field.type) {
    case "string":
    case "text":
    case "rich_text":
      return field.optional ? undefined : cases(BLANK, fc.stringMatching(/^[ \t\r\n]*$/));
    case "integer":
      return fc.oneof(cases(NOT_A_NUMBER, junk(/^[+-]?\d+$/)), integerOutOfRange);
    case "float":
      return cases(
        NOT_A_NUMBER,
        fc.oneof(
          junk(/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/),
          fc.constantFrom("NaN", "Infinity", "1e999", "1,5"),
        ),
      );
    case "date":
      return cases(NOT_A_DATE, fc.oneof(impossibleDate, misshapen(dateText)));
    case "datetime":
      return cases(
        NOT_A_DATETIME,
        fc.oneof(
          dateText,
          fc.tuple(impossibleDate, timeText).map(([d, t]) => `${d} ${t}`),
          fc.tuple(dateText, impossibleTime).map(([d, t]) => `${d}T${t}`),
          fc
            .tuple(datetimeText, fc.constantFrom("Z", "+01:00", ".5", " UTC"))
            .map((p) => p.join("")),
          misshapen(datetimeText),
        ),
      );
    case "time":
      return cases(NOT_A_TIME, fc.oneof(impossibleTime, misshapen(timeText)));
    case "decimal":
      return cases(
        NOT_A_DECIMAL,
        fc.oneof(
          junk(/^[+-]?\d+(\.\d+)?$/),
          fc.constantFrom("1e5", "1.5E-3", " 1", "1 000", "1,000", "1.", ".5", "+-1", "0x10"),
        ),
      );
    case "uuid":
      return cases(
        NOT_A_UUID,
        fc.oneof(
          misshapen(uuidText),
          uuidText.map((u) => u.replaceAll("-", "")),
        ),
      );
    case "json":
      return cases(
        NOT_JSON,
        fc.constantFrom("{", "[1,", "{'a':1}", "undefined", "NaN", "tru", "01"),
      );
    case "enum":
      return cases(
        NOT_IN_LIST,
        fc.string({ minLength: 1 }).filter((t) => t.trim() !== "" && !field.args.includes(t)),
      );
    default:
      return undefined;
  }
}

/** `YYYY-MM-DD` with a month or day the calendar does not have (Feb 29 of common years included). */
const impossibleDate: Arbitrary<string> = fc
  .oneof(
    fc.tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 0, max: 99 }),
    ),
    fc.tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 29, max: 31 }),
    ),
  )
  .filter(([year, month, day]) => {
    if (month < 1 || month > 12 || day < 1) return true;
    // Date rolls an impossible day over into the next month; 2000 is a leap year, so Feb 29
    // survives until the real year is set.
    const probe = new Date(Date.UTC(2000, month - 1, day));
    probe.setUTCFullYear(year);
    return probe.getUTCDate() !== day;
  })
  .map(([year, month, day]) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`);

/** `HH:MM` or `HH:MM:SS` with an hour past 23 or a minute or second past 59. */
const impossibleTime: Arbitrary<string> = fc
  .tuple(
    fc.integer({ min: 0, max: 99 }),
    fc.integer({ min: 0, max: 99 }),
    fc.integer({ min: 0, max: 99 }),
  )
  .filter(([h, m, s]) => h > 23 || m > 59 || s > 59)
  .map(([h, m, s]) => `${pad(h)}:${pad(m)}${s > 59 ? `:${pad(s)}` : ""}`);

/** A valid text with one character dropped, doubled or replaced by a letter that breaks it. */
function misshapen(valid: Arbitrary<string>): Arbitrary<string> {
  return fc
    .tuple(valid, fc.nat(), fc.constantFrom("drop", "double-dash", "letter", "space"))
    .map(([text, at, change]) => {
      const i = at % text.length;
      if (change === "drop") return text.slice(0, i) + text.slice(i + 1);
      if (change === "double-dash") return `${text.slice(0, i)}-${text.slice(i)}`;
      if (change === "letter") return `${text.slice(0, i)}g${text.slice(i + 1)}`;
      return ` ${text}`;
    });
}

/**
 * The form a browser would post for a valid JSON body of `fields`: numbers as text, booleans as
 * a checked box (`1`) or no entry at all, json values as JSON text, null as an empty input.
 */
export function formOf(
  fields: readonly Field[],
  body: Readonly<Record<string, JsonValue>>,
): URLSearchParams {
  const jsonKeys = new Set(fields.filter((f) => f.type === "json").flatMap((f) => f.columns));
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === null) form.append(key, "");
    else if (jsonKeys.has(key)) form.append(key, JSON.stringify(value));
    else if (value === true) form.append(key, "1");
    else if (value !== false) form.append(key, String(value));
  }
  return form;
}
