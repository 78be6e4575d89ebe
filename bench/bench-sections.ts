// docs/benchmarks.md holds one section per bench file, each opened by a marker line naming the
// file (`<!-- examples/app/bench/limit.bench.ts -->`) and running to the next marker of any
// kind. A run replaces the sections of the files it ran where they stand, so the order chosen
// for the document survives, and a run of one file leaves every other section as it was.

const MARKER = /^<!-- (.+?) -->$/gm;

/** Where each marked part of `document` starts, with the name in its marker. */
function markers(document: string): { readonly name: string; readonly index: number }[] {
  return [...document.matchAll(MARKER)].map((match) => ({
    name: match[1]!,
    index: match.index,
  }));
}

function isBenchFile(name: string): boolean {
  return name.endsWith(".bench.ts");
}

/** The bench files that have a section in `document`, in the document's order. */
export function benchSectionFiles(document: string): string[] {
  return markers(document)
    .map(({ name }) => name)
    .filter(isBenchFile);
}

/** `head`, then `section`, then `rest`, with one blank line between and one newline at the end. */
function joined(head: string, section: string, rest: string): string {
  return `${head}${section.trimEnd()}\n\n${rest.trimStart()}`.replace(/\n+$/, "\n");
}

/**
 * `document` with the section of bench file `file` holding `body` (the bench's Markdown output):
 * in its place when the document has it, else after the last bench section (before the
 * sections other generators keep, such as the install footprint), else at the end.
 */
export function replaceBenchSection(document: string, file: string, body: string): string {
  const section = `<!-- ${file} -->\n${body.trim()}\n`;
  const found = markers(document);
  const at = found.findIndex(({ name }) => name === file);
  if (at !== -1) {
    const end = found[at + 1]?.index ?? document.length;
    return joined(document.slice(0, found[at]!.index), section, document.slice(end));
  }
  const lastBench = found.findLastIndex(({ name }) => isBenchFile(name));
  const before = lastBench === -1 ? undefined : found[lastBench + 1]?.index;
  if (before === undefined) return joined(`${document.trimEnd()}\n\n`, section, "");
  return joined(document.slice(0, before), section, document.slice(before));
}

/** `document` without the section of bench file `file` (a bench that was deleted). */
export function removeBenchSection(document: string, file: string): string {
  const found = markers(document);
  const at = found.findIndex(({ name }) => name === file);
  if (at === -1) return document;
  const end = found[at + 1]?.index ?? document.length;
  return `${document.slice(0, found[at]!.index)}${document.slice(end)}`.replace(/\n+$/, "\n");
}

/** A bench's Markdown output with `Measured <date>.` under its first line (its heading). */
export function datedSection(markdown: string, date: string): string {
  const [heading = "", ...rest] = markdown.trim().split("\n");
  return [heading, "", `Measured ${date}.`, ...rest].join("\n");
}
