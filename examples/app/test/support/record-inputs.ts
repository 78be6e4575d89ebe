import type { Field, Model } from "@tessera/fields";
import {
  dateText,
  datetimeText,
  decimalText,
  integerInRange,
  jsonValue,
  timeText,
  uuidText,
} from "@tessera/fields/arbitraries";
import fc, { type Arbitrary } from "fast-check";
import type { ValuesByKey } from "./fuzz-bodies.js";
import { hostileText } from "./hostile-input.js";

/** Values of one input, as JSON text and as form text. */
interface InputValues {
  readonly json: Arbitrary<string>;
  readonly form: Arbitrary<string>;
}

const same = (values: Arbitrary<string>, json = values.map((value) => JSON.stringify(value))) => ({
  json,
  form: values,
});

/** An id a record may refer to: the few first ids exist, the others do not. */
const smallId = fc.integer({ min: 1, max: 12 });

/** Values a field's type accepts, so a body often gets past decoding to validation and SQL. */
function typedValues(field: Field, column: string): InputValues {
  switch (field.type) {
    case "string":
    case "text":
      // Text of the right type, hostile within: NUL, lone surrogates, marks, huge.
      return same(fc.oneof(fc.string({ maxLength: 30 }), hostileText));
    case "rich_text":
      return same(
        fc.oneof(
          fc.constantFrom(
            "<p>Hello</p>",
            "<script>alert(1)</script><b>bold</b>",
            '<a href="javascript:alert(1)">x</a>',
            "<img src=x onerror=alert(1)>",
            "<p><p><p>",
          ),
          hostileText,
        ),
      );
    case "integer":
    case "lock_version":
      return { json: integerInRange.map(String), form: integerInRange.map(String) };
    case "float": {
      const float = fc.double({ noNaN: true, noDefaultInfinity: true });
      return { json: float.map((n) => JSON.stringify(n)), form: float.map(String) };
    }
    case "boolean":
      return {
        json: fc.constantFrom("true", "false"),
        form: fc.constantFrom("1", "0", "on", "true", "false", ""),
      };
    case "date":
      return same(dateText);
    case "datetime":
      return same(datetimeText);
    case "time":
      return same(timeText);
    case "decimal":
      return same(decimalText);
    case "uuid":
      return same(uuidText);
    case "json": {
      const text = jsonValue.map((value) => JSON.stringify(value));
      return { json: text, form: text };
    }
    case "enum":
      return same(fc.constantFrom(...field.args));
    case "references":
      return { json: smallId.map(String), form: smallId.map(String) };
    case "polymorphic":
      return column.endsWith("_type")
        ? same(fc.constantFrom(...field.args))
        : { json: smallId.map(String), form: smallId.map(String) };
    default:
      throw new Error(`no input values for ${field.type} ${field.name}`);
  }
}

/** The inputs a model's JSON body or form reads: every column but files and the public id. */
function inputs(model: Model): [string, InputValues][] {
  return model.fields.flatMap((field) =>
    field.type === "attachment" || field.type === "attachments" || field.type === "public_id"
      ? []
      : field.columns.map((column): [string, InputValues] => [column, typedValues(field, column)]),
  );
}

/** The inputs a new record cannot do without: its required text, numbers and references. */
export function requiredInputs(model: Model): string[] {
  const defaulted = ["boolean", "enum", "lock_version", "attachment", "attachments", "public_id"];
  return model.fields
    .filter((field) => !field.optional && !defaulted.includes(field.type))
    .flatMap((field) => field.columns);
}

/** JSON texts by key for a model's create and update bodies. */
export function recordJsonValues(model: Model): ValuesByKey {
  return Object.fromEntries(inputs(model).map(([key, values]) => [key, values.json]));
}

/** Form texts by key for a model's HTML forms. */
export function recordFormValues(model: Model): ValuesByKey {
  return Object.fromEntries(inputs(model).map(([key, values]) => [key, values.form]));
}

/** The names of a model's file inputs: its attachment and attachments fields. */
export function fileInputs(model: Model): string[] {
  return model.fields
    .filter((field) => field.type === "attachment" || field.type === "attachments")
    .map((field) => field.name);
}
