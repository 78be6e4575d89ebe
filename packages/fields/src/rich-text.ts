import sanitizeHtml from "sanitize-html";

/** Tags a rich_text value keeps; every other tag is removed (its text stays, except in script/style). */
export const RICH_TEXT_TAGS: readonly string[] = [
  "p",
  "br",
  "strong",
  "em",
  "a",
  "ul",
  "ol",
  "li",
  "h1",
  "h2",
  "h3",
  "h4",
  "blockquote",
  "code",
  "pre",
];

// sanitize-html lets relative URLs through whatever `allowedSchemes` says; links here must be
// absolute http(s) or mailto, so any other href is dropped (the link text stays).
const ABSOLUTE_LINK = /^\s*(?:https?:\/\/|mailto:)/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: { a: ["href"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      return { tagName, attribs: href && ABSOLUTE_LINK.test(href) ? { ...rest, href } : rest };
    },
  },
};

const MARKUP = /[<>&]/;

/**
 * Sanitized HTML for a rich_text value: only {@link RICH_TEXT_TAGS}, only `href` on links and
 * only http, https or mailto there. Idempotent, so sanitizing stored HTML again changes nothing.
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
