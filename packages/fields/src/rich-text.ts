import type { Field } from "./field.js";

/**
 * What a model's rich_text values are sanitized with: `richTextSanitizer` of
 * `@tessera/sanitizer`, given to `defineModel` (or `withRichText`) as `richText`. fields itself
 * holds no HTML parser, so that a package that only reads messages or codecs installs none.
 */
export interface RichTextSanitizer {
  /** Safe HTML for a value. Must be idempotent: stored HTML sanitized again is unchanged. */
  sanitize(html: string): string;
  /** What `sanitize` gives, yielding to the event loop between slices of a long value. */
  sanitizeAsync(html: string): Promise<string>;
  /** Values longer than this many characters are sanitized ahead, by `prepareRichText`. */
  readonly sliceLength: number;
}

/**
 * The sanitizer of a rich_text field.
 * @throws {Error} naming `@tessera/sanitizer` when the field has none: a model with rich_text
 *   must be defined with one, so this is a programming error.
 */
export function richTextSanitizerOf(field: Field): RichTextSanitizer {
  if (field.sanitizer !== undefined) return field.sanitizer;
  throw new Error(missingSanitizer(field));
}

/** Why a rich_text field cannot be read without a sanitizer, and where to get one. */
function missingSanitizer(field: Field): string {
  return `\`${field.declaration}\` needs a sanitizer: pass \`richText: richTextSanitizer\` (from @tessera/sanitizer) where its model is defined`;
}

/**
 * `fields` with `sanitizer` on every rich_text field, for decoding; other fields are the same
 * objects. `defineModel` and `defineJob` call it with their `richText` option.
 * @throws {Error} `<owner>: \`<declaration>\` needs a sanitizer…` when a field is rich_text and
 *   `sanitizer` is undefined, so that a model without one fails where it is defined.
 */
export function withRichText(
  fields: readonly Field[],
  sanitizer: RichTextSanitizer | undefined,
  owner = "fields",
): readonly Field[] {
  if (sanitizer === undefined) {
    const unsanitized = fields.find((field) => field.type === "rich_text");
    if (unsanitized) throw new Error(`${owner}: ${missingSanitizer(unsanitized)}`);
    return fields;
  }
  return fields.map((field) => (field.type === "rich_text" ? { ...field, sanitizer } : field));
}

/** True when sanitized HTML shows no text: tags stripped, only whitespace left (`<p> </p>`). */
export function isBlankRichText(sanitized: string): boolean {
  // Sanitized output is well-formed with `<` escaped in text, so every `<` opens a tag.
  return sanitized.replace(/<[^>]*>/g, "").trim() === "";
}
