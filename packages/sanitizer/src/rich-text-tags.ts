/**
 * Tags a rich_text value keeps (the Rails safe list, what editors such as Trix write); every
 * other tag is removed (its text stays, except in script, style and the like).
 */
export const RICH_TEXT_TAGS: readonly string[] = [
  ..."strong em b i u s del ins sub sup p br div span h1 h2 h3 h4 h5 h6".split(" "),
  ..."ul ol li dl dt dd blockquote pre code hr a img figure figcaption".split(" "),
  ..."table thead tbody tr th td abbr cite".split(" "),
];

/** {@link RICH_TEXT_TAGS} for lookups. */
export const KEPT_TAGS: ReadonlySet<string> = new Set(RICH_TEXT_TAGS);

/** Kept tags written `<br />`, with no closing tag. */
export const VOID_TAGS: ReadonlySet<string> = new Set(["br", "hr", "img"]);

/**
 * Removed tags whose content goes too: code, styles and form values are not text a reader
 * wrote. (sanitize-html's list, which rich_text used before; htmlparser2 reads script and style
 * content as raw text, the others as markup, dropped all the same.)
 */
export const CONTENT_DROPPED_TAGS: ReadonlySet<string> = new Set([
  "script",
  "style",
  "textarea",
  "option",
]);
