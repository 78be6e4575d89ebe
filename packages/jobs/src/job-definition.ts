import {
  type Field,
  type FieldType,
  type JsonValue,
  type PreparedRichText,
  parseDeclarations,
  type RichTextSanitizer,
  SNAKE_CASE,
  withRichText,
} from "@tessera/fields";
import { decodeJobInput, type JobInputResult } from "./job-input.js";

/**
 * A job's input in its JSON form, keyed by field name: what `decodeInput` gives, what the
 * service is sent and what `encodeJob` shows. Text types are strings, numbers are numbers,
 * booleans `true`/`false`, json fields their JSON value, and an optional field left out is null.
 * Not typed per job: the declarations are strings, so read a value with a check or a cast.
 */
export type JobInput = Readonly<Record<string, JsonValue>>;

/** A kind of external job: its name, its table and its input fields. Made by {@link defineJob}. */
export interface JobDefinition {
  /** snake_case; names the table (`<name>_jobs`), the callback path and `<NAME>_URL`. */
  readonly name: string;
  /** `<name>_jobs`. */
  readonly table: string;
  /** The input fields of `@tessera/fields`, parsed from the declarations, in table order. */
  readonly inputs: readonly Field[];
  /**
   * Reads a JSON body (already parsed) with the JSON create semantics of records: wrong JSON types
   * and missing required keys are a 400, broken rules a 422 listing every field. Never throws.
   * `richText`: long rich_text values sanitized ahead (`prepareRichText` of `@tessera/fields`).
   */
  decodeInput(body: unknown, richText?: PreparedRichText): JobInputResult;
}

/** Columns of every job table: an input cannot take their names. */
export const JOB_TABLE_COLUMNS: readonly string[] = [
  "id",
  "user_id",
  "status",
  "external_id",
  "progress",
  "result",
  "error",
  "attempts",
  "token",
  "last_attempt_at",
  "created_at",
  "updated_at",
];

// Why each refused type makes no sense as a job input, said as what to write instead.
const REFUSED_TYPES: Partial<Record<FieldType, string>> = {
  attachment:
    "inputs travel to the service in a JSON body, which carries no file: store the file elsewhere and pass where it is, e.g. `photo_url:string`",
  attachments:
    "inputs travel to the service in a JSON body, which carries no file: store the files elsewhere and pass where they are, e.g. `photo_urls:json`",
  references:
    "a job keeps the values it was started with; a reference would tie its row to another table. Pass the id as a value, e.g. `post_id:integer`",
  polymorphic:
    "a job keeps the values it was started with; a reference would tie its row to another table. Pass the type and id as values, e.g. `target_type:string` and `target_id:integer`",
  public_id: "a job already has its `id`, and only its owner can read it: leave `public_id` out",
  lock_version:
    "the job store already refuses writes based on a stale read (compare-and-set): leave `lock_version` out",
};

/**
 * Declares a job from field declarations: `defineJob("render", ["prompt:text",
 * "width:integer?"])`. Inputs take every field type of `@tessera/fields` except attachment,
 * attachments, references, polymorphic, public_id and lock_version, and cannot be unique.
 * @throws {Error} for a job name that is not snake_case, a declaration `@tessera/fields`
 * refuses (its message and hint), a refused type, a unique input, or an input named like one
 * of {@link JOB_TABLE_COLUMNS}, or a rich_text input without `options.richText` (the
 * sanitizer, `richTextSanitizer` of `@tessera/sanitizer`): definitions are code, so this is a
 * programmer error.
 */
export function defineJob(
  name: string,
  declarations: readonly string[],
  options: { readonly richText?: RichTextSanitizer | undefined } = {},
): JobDefinition {
  if (!SNAKE_CASE.test(name)) {
    throw new Error(
      `invalid job name \`${name}\` (job names are snake_case and start with a letter: they name the table \`<name>_jobs\`, the callback path and \`<NAME>_URL\`)`,
    );
  }
  // `jsonApi: false` only so that `photo:attachment` gets the job refusal below rather than the
  // fields' advice to make it optional, which would not help.
  const parsed = parseDeclarations(declarations, { jsonApi: false });
  if (!parsed.ok) throw new Error(`job ${name}: ${parsed.reason} (${parsed.hint})`);
  for (const field of parsed.value) refuseInput(name, field);
  const inputs = withRichText(parsed.value, options.richText, `job ${name}`);
  const definition: JobDefinition = {
    name,
    table: `${name}_jobs`,
    inputs,
    decodeInput: (body, richText) => decodeJobInput(inputs, body, richText),
  };
  return Object.freeze(definition);
}

function refuseInput(job: string, field: Field): void {
  const refused = (reason: string, hint: string) => new Error(`job ${job}: ${reason} (${hint})`);
  const why = REFUSED_TYPES[field.type];
  if (why !== undefined) {
    throw refused(`\`${field.declaration}\` cannot be a job input`, why);
  }
  if (field.unique) {
    throw refused(
      `job input \`${field.name}\` cannot be unique`,
      "a second job with the same value would fail with a database error instead of an answer: drop the `^`",
    );
  }
  const clash = field.columns.find((column) => JOB_TABLE_COLUMNS.includes(column));
  if (clash !== undefined) {
    throw refused(
      `job input \`${clash}\` clashes with a field every job has`,
      `every job has ${JOB_TABLE_COLUMNS.map((c) => `\`${c}\``).join(", ")}; choose another name, e.g. \`${job}_${clash}\``,
    );
  }
}
