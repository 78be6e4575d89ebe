/** Biome's (and Prettier's) line width in this project's settings. */
const LINE_WIDTH = 100;

/** One name a file is to import: `import { name } from "source";`. */
export interface NamedImport {
  readonly name: string;
  readonly source: string;
}

/** An import statement of a file's leading block, where it stands. */
interface ImportStatement {
  readonly start: number;
  readonly end: number;
  readonly source: string;
  /** `Default, ` of `import Default, { … }`, or empty. */
  readonly head: string;
  /** The names between its braces, as written (`type X` included); undefined without braces. */
  readonly names: readonly string[] | undefined;
}

// One statement and the line break after it: `import … from "x";`, a type-only one, or one that
// only loads its module (`import "x";`). Its names may run over several lines.
const STATEMENT =
  /import(?<type>\s+type)?\s+(?:(?<head>[A-Za-z_$][\w$]*\s*,\s*)?\{(?<names>[^}]*)\}|[^;"'{}]+?)\s*from\s*"(?<from>[^"]+)";[ \t]*\n|import\s*"(?<bare>[^"]+)";[ \t]*\n/y;

/**
 * The import statements the file starts with, up to its first other line; undefined when they
 * are not all of the forms above (a statement cannot be read, or the file has none).
 */
function importBlock(text: string): ImportStatement[] | undefined {
  const statements: ImportStatement[] = [];
  let at = 0;
  while (text.startsWith("import", at)) {
    STATEMENT.lastIndex = at;
    const match = STATEMENT.exec(text);
    if (!match?.groups) return undefined;
    const { type, head, names, from, bare } = match.groups;
    const merges = !type && names !== undefined;
    statements.push({
      start: at,
      end: STATEMENT.lastIndex,
      source: from ?? bare ?? "",
      head: merges ? (head ?? "").replace(/\s*,\s*$/, ", ") : "",
      names: merges ? splitNames(names ?? "") : undefined,
    });
    at = STATEMENT.lastIndex;
  }
  return statements.length > 0 ? statements : undefined;
}

function splitNames(list: string): string[] {
  return list
    .split(",")
    .map((name) => name.trim().replace(/\s+/g, " "))
    .filter((name) => name !== "");
}

/** A name as an import lists it, without its `type ` or `as …`. */
function importedName(specifier: string): string {
  return specifier
    .replace(/^type\s+/, "")
    .replace(/\s+as\s+.*$/, "")
    .trim();
}

/**
 * `text` with `imports` added to the import statements it starts with, where Biome's
 * organizeImports keeps them: a name joins a statement of its source that lists names already
 * (in Biome's order), else a statement of its own goes where its source sorts. Undefined when
 * the file does not start with import statements this can read.
 */
export function withImports(text: string, imports: readonly NamedImport[]): string | undefined {
  let result = text;
  for (const wanted of imports) {
    const block = importBlock(result);
    if (!block) return undefined;
    const same = block.filter((statement) => statement.source === wanted.source);
    if (same.some((statement) => statement.names?.map(importedName).includes(wanted.name))) {
      continue;
    }
    const joined = same.find((statement) => statement.names !== undefined);
    if (joined) {
      const names = [...(joined.names ?? []), wanted.name].sort((a, b) =>
        compareNames(importedName(a), importedName(b)),
      );
      result = `${result.slice(0, joined.start)}${importStatement(joined.source, names, joined.head)}${result.slice(joined.end)}`;
      continue;
    }
    const after = block.find((statement) => compareSources(statement.source, wanted.source) > 0);
    const at = after?.start ?? block.at(-1)!.end;
    result = `${result.slice(0, at)}${importStatement(wanted.source, [wanted.name])}${result.slice(at)}`;
  }
  return result;
}

/** `import { a, b } from "x";` and its line break, over several lines when it is too long. */
export function importStatement(source: string, names: readonly string[], head = ""): string {
  const oneLine = `import ${head}{ ${names.join(", ")} } from ${JSON.stringify(source)};`;
  if (oneLine.length <= LINE_WIDTH) return `${oneLine}\n`;
  return `import ${head}{\n${names.map((name) => `  ${name},\n`).join("")}} from ${JSON.stringify(source)};\n`;
}

/**
 * Biome's order of import sources: `node:` modules, then packages, then `../` paths, then
 * `./` ones; within them, by path segment, a file's extension left out.
 */
export function compareSources(a: string, b: string): number {
  const rank = (source: string) =>
    /^[a-z]+:/.test(source) ? 0 : source.startsWith("../") ? 2 : source.startsWith(".") ? 3 : 1;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  const segments = (source: string) => source.replace(/\.[cm]?[jt]sx?$/, "").split("/");
  const [left, right] = [segments(a), segments(b)];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = compareNames(left[i]!, right[i]!);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** Where a character sorts: symbols (`_` before `-` before the rest), then digits, then letters. */
function characterClass(char: string): number {
  if (/[0-9]/.test(char)) return 10;
  if (/[A-Za-z]/.test(char)) return 11;
  return char === "_" ? 0 : char === "-" ? 1 : 2;
}

/**
 * Biome's natural order of names: symbols, then numbers (by value), then letters, a letter's
 * upper case before its lower case at the first place two names differ (`AppOptions`, `aB`,
 * `ab`, `appAccounts`).
 */
export function compareNames(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [x, y] = [a[i]!, b[j]!];
    const [cx, cy] = [characterClass(x), characterClass(y)];
    if (cx === 10 && cy === 10) {
      const [nx = "", ny = ""] = [/^\d+/.exec(a.slice(i))?.[0], /^\d+/.exec(b.slice(j))?.[0]];
      if (Number(nx) !== Number(ny)) return Number(nx) - Number(ny);
      i += nx.length;
      j += ny.length;
      continue;
    }
    if (cx !== cy) return cx - cy;
    if (x !== y) {
      const [lx, ly] = [x.toLowerCase(), y.toLowerCase()];
      if (lx !== ly) return lx < ly ? -1 : 1;
      return x === x.toUpperCase() ? -1 : 1;
    }
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}
