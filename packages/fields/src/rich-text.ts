import { readHtml } from "./html-reader.js";
import { RICH_TEXT_TAGS } from "./rich-text-tags.js";
import { SafeListWriter } from "./rich-text-writer.js";

// Our own sanitizer on htmlparser2's tokenizer rather than sanitize-html (built on the same
// tokenizer): sanitize-html loads postcss, which requires fs, path and url and reads NO_COLOR,
// FORCE_COLOR and CI as it loads, so it cannot load in Workers, nor in Deno without
// --allow-env; and its output needed up to five passes to be stable (1.4-2 s for 1 MB). The safe
// list is small (a few dozen tags, four attributes, two URL rules), so writing it here costs
// little: one pass, stable by construction, linear time, on every runtime.

const MARKUP = /[<>&]/;

/**
 * Sanitized HTML for a rich_text value: only {@link RICH_TEXT_TAGS}; only `title`, `href` on
 * links and `src` and `alt` on images, with safe URLs there. Idempotent, so sanitizing stored
 * HTML again changes nothing. Linear in the input, but check its size first: it runs on the
 * caller's thread.
 */
export function sanitizeRichText(html: string): string {
  // Text without `<`, `>` or `&` comes out of the parser unchanged (a property test checks
  // this), and skipping the parser for it makes plain-text bodies cheap.
  if (!MARKUP.test(html)) return html;
  const writer = new SafeListWriter();
  readHtml(html, writer);
  return writer.html();
}

/** True when sanitized HTML shows no text: tags stripped, only whitespace left (`<p> </p>`). */
export function isBlankRichText(sanitized: string): boolean {
  // Sanitized output is well-formed with `<` escaped in text, so every `<` opens a tag.
  return sanitized.replace(/<[^>]*>/g, "").trim() === "";
}

export { RICH_TEXT_TAGS };
