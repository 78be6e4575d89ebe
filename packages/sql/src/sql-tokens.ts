import type { SqlDialectName } from "./database.js";

// Hand-written rather than a SQL parser: this package has no dependencies and runs on every
// runtime, and reading migrations needs only the lexical states below (what is code, what is a
// literal or a comment) plus line numbers, not a syntax tree of either engine's grammar.

/** A token of SQL text: comments and white space are skipped. */
export interface SqlToken {
  /**
   * `word`: a bare word, keyword or identifier; `quoted`: a quoted identifier (`"a"`, and on
   * SQLite `` `a` `` or `[a]`), `text` without its quotes; `string`: a literal, including
   * PostgreSQL's `E'…'` and dollar-quoted bodies; `;`, `(`, `)`; `other`: numbers,
   * operators, parameters.
   */
  readonly kind: "word" | "quoted" | "string" | ";" | "(" | ")" | "other";
  readonly text: string;
  /** The line the token starts on, from 1. */
  readonly line: number;
  /** Where the token starts in the text, as a string index. */
  readonly offset: number;
}

const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

// Character classes by code, not regular expressions: the scanner asks them once per
// character, and a sticky expression's test costs several times a comparison.
const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);
const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code >= 128;
/** Where the run of characters `within` accepts, starting at `from`, ends. */
function runEnd(sql: string, from: number, within: (code: number) => boolean): number {
  let at = from;
  while (at < sql.length && within(sql.charCodeAt(at))) at += 1;
  return at;
}
const isWordPart = (code: number) => isLetter(code) || isDigit(code) || code === 36;
const isNumberPart = (code: number) => isLetter(code) || isDigit(code) || code === 46;

/**
 * The tokens of `sql` as `dialect` reads it: PostgreSQL nests block comments and has
 * dollar-quoted bodies and `E'…'` strings with backslash escapes; SQLite quotes identifiers
 * with backticks and brackets too. An unterminated literal or comment runs to the end.
 */
export function* sqlTokens(sql: string, dialect: SqlDialectName): Generator<SqlToken> {
  const postgres = dialect === "postgres";
  let index = 0;
  let line = 1;
  while (index < sql.length) {
    const char = sql[index]!;
    const next = sql[index + 1];
    let kind: SqlToken["kind"] | undefined;
    let end: number;
    let text: string | undefined;
    const code = sql.charCodeAt(index);
    if (isSpace(code)) {
      end = runEnd(sql, index, isSpace);
    } else if (char === "-" && next === "-") {
      end = lineCommentEnd(sql, index, postgres);
    } else if (char === "/" && next === "*") {
      end = blockCommentEnd(sql, index, postgres);
    } else if (char === "'") {
      kind = "string";
      end = quotedEnd(sql, index + 1, "'", false);
    } else if (char === '"' || (!postgres && char === "`")) {
      kind = "quoted";
      end = quotedEnd(sql, index + 1, char, false);
      text = unquote(sql.slice(index + 1, end), char);
    } else if (!postgres && char === "[") {
      const close = sql.indexOf("]", index + 1);
      kind = "quoted";
      end = close === -1 ? sql.length : close + 1;
      text = sql.slice(index + 1, close === -1 ? end : close);
    } else if (postgres && char === "$" && dollarTagEnd(sql, index) !== -1) {
      const tag = sql.slice(index, dollarTagEnd(sql, index));
      const close = sql.indexOf(tag, index + tag.length);
      kind = "string";
      end = close === -1 ? sql.length : close + tag.length;
    } else if (isLetter(code)) {
      end = runEnd(sql, index + 1, isWordPart);
      // E'…' is one literal whose backslashes escape, quotes included (`E'it\'s'`).
      const escapes = postgres && end === index + 1 && (char === "E" || char === "e");
      if (escapes && sql[end] === "'") {
        kind = "string";
        end = quotedEnd(sql, end + 1, "'", true);
      } else kind = "word";
    } else if (isDigit(code)) {
      kind = "other";
      end = runEnd(sql, index + 1, isNumberPart);
    } else {
      kind = char === ";" || char === "(" || char === ")" ? char : "other";
      end = index + 1;
    }
    const startLine = line;
    for (let at = index; at < end; at++) if (sql.charCodeAt(at) === 10) line += 1;
    if (kind !== undefined)
      yield { kind, text: text ?? sql.slice(index, end), line: startLine, offset: index };
    index = end;
  }
}

/** Just past the `quote` that closes a literal begun before `from`; a doubled quote stays in. */
function quotedEnd(sql: string, from: number, quote: string, backslashes: boolean): number {
  let at = from;
  while (at < sql.length) {
    const char = sql[at]!;
    if (backslashes && char === "\\") at += 2;
    else if (char !== quote) at += 1;
    else if (sql[at + 1] === quote) at += 2;
    else return at + 1;
  }
  return sql.length;
}

/** The text inside a quoted identifier: without its closing quote, doubled quotes made one. */
function unquote(inner: string, quote: string): string {
  const body = inner.endsWith(quote) ? inner.slice(0, -1) : inner;
  return body.replaceAll(quote + quote, quote);
}

/** Where a `--` comment ends: at a line feed, and on PostgreSQL at a carriage return too. */
function lineCommentEnd(sql: string, from: number, postgres: boolean): number {
  const end = postgres ? /[\n\r]/g : /\n/g;
  end.lastIndex = from;
  return end.exec(sql)?.index ?? sql.length;
}

/** Just past the comment opened at `from`: PostgreSQL's nest, SQLite's end at the first close. */
function blockCommentEnd(sql: string, from: number, nested: boolean): number {
  let depth = 0;
  let at = from;
  while (at < sql.length) {
    if (sql.startsWith("/*", at) && (nested || depth === 0)) {
      depth += 1;
      at += 2;
    } else if (sql.startsWith("*/", at)) {
      depth -= 1;
      at += 2;
      if (depth === 0) return at;
    } else at += 1;
  }
  return sql.length;
}

/** Just past the `$tag$` that opens a dollar-quoted body at `index`, or -1. */
function dollarTagEnd(sql: string, index: number): number {
  DOLLAR_TAG.lastIndex = index;
  return DOLLAR_TAG.test(sql) ? DOLLAR_TAG.lastIndex : -1;
}
