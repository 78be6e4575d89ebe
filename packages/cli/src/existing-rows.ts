import { decodeForm, type Field, withRichText } from "@tessera/fields";
import { richTextSanitizer } from "@tessera/sanitizer";
import { printableText } from "./printable-text.js";

/** A refusal, with its advice. */
type Refusal = { readonly ok: false; readonly reason: string; readonly hint: string };

/**
 * The types a required field added to a table with rows may be, given `--default`: the parser
 * refuses the others (a reference, an attachment, a polymorphic pair, a public id) whatever the
 * value, as no one value is right for every row.
 */
const TAKES_DEFAULT: ReadonlySet<Field["type"]> = new Set([
  "string",
  "text",
  "rich_text",
  "integer",
  "float",
  "decimal",
  "json",
  "boolean",
  "enum",
  "date",
  "datetime",
  "time",
  "uuid",
]);

/** How a refusal names the types that take no default. */
const NO_DEFAULT_NOUNS: Partial<Record<Field["type"], string>> = {
  references: "a reference",
  polymorphic: "a polymorphic pair",
  attachment: "an attachment",
  public_id: "a public id",
};

/** Types whose column declares its own default, a value the API takes (false, the first choice, 0). */
const OWN_DEFAULT: ReadonlySet<Field["type"]> = new Set(["boolean", "enum", "lock_version"]);

/** The declaration made optional: `views:integer` → `views:integer?`, `slug:string^` → `slug:string?^`. */
function optionalForm(field: Field): string {
  return field.declaration.replace(/\^?$/, (unique) => `?${unique}`);
}

/**
 * The refusal of a required field that the rows already in `table` would have no value for: a
 * string, a number or a json value would need one made up (an empty string the API then
 * refuses as blank, a 0 nobody chose), so none is: the field is added optional, or with the
 * rows' value given (`--default`). Booleans, enums and lock versions have their column's own
 * default. Undefined when every field is fine.
 */
export function refuseRequiredWithoutValue(
  fields: readonly Field[],
  table: string | undefined,
): Refusal | undefined {
  const field = fields.find((each) => !each.optional && !OWN_DEFAULT.has(each.type));
  if (!field) return undefined;
  const rows = table === undefined ? "the table" : `\`${table}\``;
  return {
    ok: false,
    reason: `\`${field.name}\` is required, and the rows already in ${rows} have no value for it`,
    hint: `add it optional (\`${optionalForm(field)}\`), or give them its value: \`tessera generate migration add_${field.name}_to_${table ?? "<table>"} ${field.declaration} --default <value>\``,
  };
}

/**
 * The SQL value the rows already in a table get for `field` from `--default <value>`: the
 * value read by the field's own rules, as a form sends it (so the rows hold what the API would
 * accept: an enum's value from its list, a date as `2026-01-31`, a decimal's text), written as
 * a literal with the value shown; or the refusal. A field that takes no default (optional,
 * unique, or of a type no one value suits) is refused too.
 */
export function defaultLiteral(
  field: Field,
  value: string,
): { readonly ok: true; readonly sql: string; readonly shown: string } | Refusal {
  if (field.optional) {
    return {
      ok: false,
      reason: `\`${field.name}\` is optional: the rows already in the table get null, and --default gives them nothing`,
      hint: `leave out \`--default\`, or declare it required (\`${field.declaration.replace("?", "")}\`)`,
    };
  }
  if (field.unique) {
    return {
      ok: false,
      reason: `\`${field.name}\` is unique: a --default would give every row the same value`,
      hint: `add it optional (\`${optionalForm(field)}\`), give each row its value, and make it required in a migration you write`,
    };
  }
  if (!TAKES_DEFAULT.has(field.type)) {
    const noun = NO_DEFAULT_NOUNS[field.type] ?? `a ${field.type}`;
    return {
      ok: false,
      reason: `\`${field.name}\` is ${noun}: no one --default suits every row`,
      hint: `add it optional (\`${optionalForm(field)}\`)`,
    };
  }
  if (field.type === "boolean" && value !== "true" && value !== "false") {
    return {
      ok: false,
      reason: `--default \`${value}\` is no boolean`,
      hint: "write `--default true` or `--default false`",
    };
  }
  const [key = field.name] = field.columns;
  const [readable] = withRichText([field], richTextSanitizer);
  const decoded = decodeForm([readable!], new URLSearchParams([[key, value]]));
  const column = decoded.ok ? decoded.value.values[key] : undefined;
  if (!decoded.ok || column === undefined || column === null) {
    const messages =
      decoded.ok || decoded.status === 400 ? [] : Object.values(decoded.fields).flat();
    return {
      ok: false,
      reason: `--default \`${value}\` is refused: \`${field.name}\` ${messages.join(", ") || "can't be blank"}`,
      hint:
        field.type === "enum"
          ? `write one of ${field.args.map((choice) => `\`${choice}\``).join(", ")}`
          : "write a value the field takes, as a form would send it",
    };
  }
  return typeof column === "number"
    ? { ok: true, sql: String(column), shown: field.type === "boolean" ? value : String(column) }
    : {
        ok: true,
        sql: `'${column.replaceAll("'", "''")}'`,
        shown: printableText(JSON.stringify(column)),
      };
}
