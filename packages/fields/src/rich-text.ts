import sanitizeHtml from "sanitize-html";

/**
 * Tags a rich_text value keeps (the Rails safe list, what editors such as Trix write); every
 * other tag is removed (its text stays, except in script, style and the like).
 */
export const RICH_TEXT_TAGS: readonly string[] = [
  ..."strong em b i u s del ins sub sup p br div span h1 h2 h3 h4 h5 h6".split(" "),
  ..."ul ol li dl dt dd blockquote pre code hr a img figure figcaption".split(" "),
  ..."table thead tbody tr th td abbr cite".split(" "),
];

// Links: http, https, mailto, tel, and relative URLs (`/posts/1`, `page.html`, `#section`),
// which sanitize-html lets through whatever `allowedSchemes` says. Images: http, https and
// relative, so no `data:`. A URL with any other scheme loses the attribute (the text stays);
// sanitize-html reads the scheme after decoding entities and removing control characters and
// whitespace, so `java&#x09;script:` and ` JAVASCRIPT:` are caught too.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: { a: ["href", "title"], img: ["src", "alt", "title"], "*": ["title"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
};

const MARKUP = /[<>&]/;

/**
 * Sanitized HTML for a rich_text value: only {@link RICH_TEXT_TAGS}; only `title`, `href` on
 * links and `src` and `alt` on images, with safe URLs there. Idempotent, so sanitizing stored
 * HTML again changes nothing.
 */
export function sanitizeRichText(html: string): string {
  // Text without `<`, `>` or `&` comes out of sanitize-html unchanged (a property test checks
  // this), and skipping the parser for it makes plain-text bodies cheap.
  if (!MARKUP.test(html)) return html;
  // One pass is not always stable: removing a wrapper can leave markup the parser reads
  // differently next time (`<p><div><p>x</p></div></p>` gives `<p><p>x</p></p>`, which parses
  // as three paragraphs). Stored HTML must survive being sent back unchanged, so passes repeat
  // until the output stops changing (at most five in all; a property test over tag soup finds
  // no input still changing after them).
  let sanitized = sanitizeHtml(html, OPTIONS);
  for (let pass = 0; pass < MAX_EXTRA_PASSES; pass++) {
    const again = sanitizeHtml(sanitized, OPTIONS);
    if (again === sanitized) break;
    sanitized = again;
  }
  return sanitized;
}

const MAX_EXTRA_PASSES = 4;

/** True when sanitized HTML shows no text: tags stripped, only whitespace left (`<p> </p>`). */
export function isBlankRichText(sanitized: string): boolean {
  // Sanitized output is well-formed with `<` escaped in text, so every `<` opens a tag.
  return sanitized.replace(/<[^>]*>/g, "").trim() === "";
}
