/** Schemes a link (`a href`) may use; a URL without a scheme is relative and also kept. */
export const LINK_SCHEMES: ReadonlySet<string> = new Set(["http", "https", "mailto", "tel"]);

/** Schemes an image source (`img src`) may use: no `data:`, no `mailto:`. */
export const IMAGE_SCHEMES: ReadonlySet<string> = new Set(["http", "https"]);

// Browsers skip C0 controls and spaces around a URL, and tabs and newlines inside it, before
// reading its scheme. Removing all of them everywhere (a little more than browsers do) means any
// scheme a browser would read is read here too: `\tjava\nscript:` is `javascript:`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const IGNORED_BY_BROWSERS = /[\u0000-\u0020]+/g;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
// `//host/x` and `\\host\x` load from another host with the page's scheme.
const PROTOCOL_RELATIVE = /^[/\\]{2}/;

/**
 * Whether a decoded attribute value is a URL rich_text keeps: relative, a `#fragment`, or one of
 * `schemes`. Give it the value as the parser decoded it (`&#106;avascript:` must already read
 * `javascript:`); a URL holding `<!--` is refused, since `jav<!-- -->ascript:` once ran in old
 * browsers' XML islands and no real URL contains one.
 */
export function isKeptUrl(url: string, schemes: ReadonlySet<string>): boolean {
  const compact = url.replace(IGNORED_BY_BROWSERS, "");
  if (compact.includes("<!--")) return false;
  const scheme = SCHEME.exec(compact)?.[1];
  if (scheme === undefined) return !PROTOCOL_RELATIVE.test(compact);
  return schemes.has(scheme.toLowerCase());
}
