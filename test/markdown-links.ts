// Hand-written rather than a Markdown parser: the repository declares none, and the test needs
// only the link targets outside code and the anchors GitHub gives headings. Both rules are kept
// to what the repository's Markdown uses: fenced code, code spans, inline links and images,
// reference definitions, `href`/`src` attributes, ATX headings.

/** A link target found in a Markdown text, with its 1-based line. */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INLINE_LINK = /\]\(\s*(<[^>\n]*>|[^\s()]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HTML_ATTRIBUTE = /<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*"([^"]*)"/gi;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const HTML_ANCHOR = /\b(?:id|name)\s*=\s*"([^"]+)"/gi;
/** A scheme (`https:`, `mailto:`) or a protocol-relative `//host`: not a file of the repository. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * The lines of a Markdown text that are not inside fenced code, each as written (`raw`) and with
 * code spans blanked out (`text`: their content may look like a link), with its 1-based number.
 */
function proseLines(markdown: string): { text: string; raw: string; line: number }[] {
  const lines: { text: string; raw: string; line: number }[] = [];
  let fence: string | undefined;
  for (const [index, text] of markdown.split("\n").entries()) {
    const opening = FENCE.exec(text)?.[1];
    if (fence !== undefined) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      continue;
    }
    if (opening) {
      fence = opening;
      continue;
    }
    lines.push({ text: withoutCodeSpans(text), raw: text, line: index + 1 });
  }
  return lines;
}

/** Replaces each code span (a run of backticks up to the next run of the same length). */
function withoutCodeSpans(text: string): string {
  return text.replace(/(`+)[\s\S]*?\1(?!`)/g, (span) => " ".repeat(span.length));
}

/** Every relative link target of a Markdown text: external addresses are left out. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  const add = (raw: string, line: number) => {
    const target = raw.startsWith("<") ? raw.slice(1, -1) : raw;
    if (target !== "" && !EXTERNAL.test(target)) links.push({ target, line });
  };
  for (const { text, line } of proseLines(markdown)) {
    for (const match of text.matchAll(INLINE_LINK)) add(match[1]!, line);
    for (const match of text.matchAll(HTML_ATTRIBUTE)) add(match[1]!, line);
    const definition = REFERENCE_DEFINITION.exec(text);
    if (definition) add(definition[1]!, line);
  }
  return links;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  const visible = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    // A code span shows its text, `<name>` included; an HTML tag outside one shows nothing.
    .replace(/(`+)([\s\S]*?)\1(?!`)|<[^>]+>/g, (_, ticks, code) => (ticks ? code : ""))
    .trim()
    .toLowerCase();
  return visible.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The anchors a Markdown text offers: its headings' (numbered when repeated) and HTML ids. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text, raw } of proseLines(markdown)) {
    for (const match of text.matchAll(HTML_ANCHOR)) anchors.add(match[1]!.toLowerCase());
    // The raw line: a code span's text is part of the heading's anchor.
    const heading = HEADING.exec(raw)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
