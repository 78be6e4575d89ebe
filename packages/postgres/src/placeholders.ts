/**
 * Rewrites the `?` placeholders stores write into PostgreSQL's numbered `$1, $2, …`, leaving
 * alone a `?` inside a string literal, a quoted identifier, a comment or a dollar-quoted body.
 * Hand-written rather than a SQL parser: stores only need these four lexical states, and the
 * result is cached per statement text, so each distinct statement is scanned once.
 */
export function numberPlaceholders(sql: string): string {
  let out = "";
  let count = 0;
  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    const skipTo = skipQuoted(sql, index);
    if (skipTo > index) {
      out += sql.slice(index, skipTo);
      index = skipTo;
    } else if (char === "?") {
      count += 1;
      out += `$${count}`;
      index += 1;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

/** Where the literal, identifier or comment starting at `index` ends, or `index` if none does. */
function skipQuoted(sql: string, index: number): number {
  const char = sql[index];
  const next = sql[index + 1];
  if (char === "'" || char === '"') return closing(sql, index + 1, char);
  if (char === "-" && next === "-") return closing(sql, index + 2, "\n");
  if (char === "/" && next === "*") return closing(sql, index + 2, "*/");
  if (char === "$") {
    const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(index, index + 64))?.[0];
    if (tag) return closing(sql, index + tag.length, tag);
  }
  return index;
}

/** The index just past the next `end` at or after `from` (a doubled quote stays inside). */
function closing(sql: string, from: number, end: string): number {
  let at = sql.indexOf(end, from);
  while (at !== -1 && (end === "'" || end === '"') && sql[at + 1] === end) {
    at = sql.indexOf(end, at + 2);
  }
  return at === -1 ? sql.length : at + end.length;
}

// Statement texts are few and fixed, so their numbered forms are kept (up to a bound, in case
// an application builds statements of its own without end).
const numbered = new Map<string, string>();

/** {@link numberPlaceholders}, kept per statement text. */
export function numberedStatement(sql: string): string {
  let rewritten = numbered.get(sql);
  if (rewritten === undefined) {
    rewritten = numberPlaceholders(sql);
    if (numbered.size < 10_000) numbered.set(sql, rewritten);
  }
  return rewritten;
}
