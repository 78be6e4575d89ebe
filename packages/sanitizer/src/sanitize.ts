import { HtmlReading, readHtml } from "./html-reader.js";
import { SafeListWriter } from "./rich-text-writer.js";

// Our own sanitizer on htmlparser2's tokenizer rather than sanitize-html (built on the same
// tokenizer): sanitize-html loads postcss, which requires fs, path and url and reads NO_COLOR,
// FORCE_COLOR and CI as it loads, so it cannot load in Workers, nor in Deno without
// --allow-env; and its output needed up to five passes to be stable (1.4-2 s for 1 MB). The safe
// list is small (a few dozen tags, four attributes, two URL rules), so writing it here costs
// little: one pass, stable by construction, linear time, on every runtime.

const MARKUP = /[<>&]/;

/**
 * Characters {@link sanitizeRichTextAsync} reads between two yields to the event loop: about
 * 10 ms of the costliest markup measured (deeply nested tags), 1-2 ms of editor markup.
 */
export const RICH_TEXT_SLICE = 65_536;

/**
 * Sanitized HTML for a rich_text value: only the tags of `RICH_TEXT_TAGS`; only `title`, `href` on
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

/**
 * {@link sanitizeRichText} that reads {@link RICH_TEXT_SLICE} characters at a time and yields to
 * the event loop between slices (a `setTimeout`, on every runtime), so that a megabyte of markup
 * never holds up other requests for long. Gives exactly what `sanitizeRichText` gives.
 */
export async function sanitizeRichTextAsync(html: string): Promise<string> {
  if (!MARKUP.test(html)) return html;
  const writer = new SafeListWriter();
  const reading = new HtmlReading(html, writer);
  while (!reading.advance(RICH_TEXT_SLICE)) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return writer.html();
}
