import { lastText } from "./decode-form.js";
import type { FormInput } from "./decode-result.js";
import type { Field } from "./field.js";
import { richTextSanitizerOf } from "./rich-text.js";
import { fitsTextLimit } from "./text-size.js";

/**
 * Sanitized HTML of a body's long rich_text values, by the value as sent: what
 * {@link prepareRichText} gives, for the decoders' `richText` option.
 */
export type PreparedRichText = ReadonlyMap<string, string>;

/**
 * Sanitizes a body's rich_text values longer than their sanitizer's `sliceLength` with its
 * `sanitizeAsync`, a slice at a time, so that a megabyte of markup does not hold up the event
 * loop. `body` is what you will decode: a parsed JSON value or a form. Hand the result to
 * `decodeJsonCreate`, `decodeJsonUpdate` or `decodeForm` as `richText`: they then take these
 * values as sanitized instead of sanitizing them on the spot, and decode exactly as they would
 * have. Values over the size limit are skipped: the decoder refuses them unread.
 */
export async function prepareRichText(
  fields: readonly Field[],
  body: unknown,
): Promise<PreparedRichText> {
  const prepared = new Map<string, string>();
  for (const field of fields) {
    if (field.type !== "rich_text") continue;
    const sanitizer = richTextSanitizerOf(field);
    const value = sentValue(body, field.name);
    if (typeof value !== "string" || value.length <= sanitizer.sliceLength) continue;
    if (!fitsTextLimit(value) || prepared.has(value)) continue;
    prepared.set(value, await sanitizer.sanitizeAsync(value));
  }
  return prepared;
}

/** What `body` holds under `name`: a form's last text, a JSON object's value. */
function sentValue(body: unknown, name: string): unknown {
  if (typeof body !== "object" || body === null) return undefined;
  // Parsed JSON never holds a function, so this tells a form from a JSON object.
  if (typeof (body as FormInput).getAll === "function") return lastText(body as FormInput, name);
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}
