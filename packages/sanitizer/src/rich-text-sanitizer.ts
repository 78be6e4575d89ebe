import { RICH_TEXT_SLICE, sanitizeRichText, sanitizeRichTextAsync } from "./sanitize.js";

/**
 * The sanitizer as `@tessera/fields` takes it, for `defineModel(name, fields, { richText })`
 * and `defineJob`: {@link sanitizeRichText}, {@link sanitizeRichTextAsync} and the length past
 * which records sanitize a value ahead, a slice at a time ({@link RICH_TEXT_SLICE}).
 *
 * @example
 * ```ts
 * import { defineModel } from "@tessera/fields";
 * import { richTextSanitizer } from "@tessera/sanitizer";
 *
 * const post = defineModel("post", ["title:string", "body:rich_text?"], {
 *   richText: richTextSanitizer,
 * });
 * ```
 */
export const richTextSanitizer: {
  readonly sanitize: (html: string) => string;
  readonly sanitizeAsync: (html: string) => Promise<string>;
  readonly sliceLength: number;
} = Object.freeze({
  sanitize: sanitizeRichText,
  sanitizeAsync: sanitizeRichTextAsync,
  sliceLength: RICH_TEXT_SLICE,
});
