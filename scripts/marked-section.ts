/**
 * A generated section of a Markdown file, between `<!-- name:start -->` and `<!-- name:end -->`,
 * so two generators can share one file without wiping each other's output.
 */
function markers(name: string): { readonly start: string; readonly end: string } {
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` };
}

/** The section called `name`, markers included, or undefined when the document has none. */
export function markedSection(document: string, name: string): string | undefined {
  const { start, end } = markers(name);
  const from = document.indexOf(start);
  const to = document.indexOf(end, from);
  return from === -1 || to === -1 ? undefined : document.slice(from, to + end.length);
}

/** The document with the section called `name` holding `body` (appended when missing). */
export function replaceMarkedSection(document: string, name: string, body: string): string {
  const { start, end } = markers(name);
  const section = `${start}\n${body.trim()}\n${end}`;
  const existing = markedSection(document, name);
  return existing === undefined
    ? `${document.trimEnd()}\n\n${section}\n`
    : document.replace(existing, () => section);
}
