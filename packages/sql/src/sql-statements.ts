import type { SqlDialectName } from "./database.js";
import { type SqlToken, sqlTokens } from "./sql-tokens.js";

/** How many tokens of a statement {@link sqlStatementHeads} keeps: enough to name it. */
const HEAD_TOKENS = 6;

/**
 * The statements with a body of statements, by dialect: the words between `CREATE` and the
 * kind, then the kinds. SQLite's triggers (`BEGIN …; END`); PostgreSQL's SQL-standard functions
 * and procedures (`BEGIN ATOMIC …; END`). PostgreSQL triggers have no body of their own.
 */
const ROUTINES: Readonly<
  Record<
    SqlDialectName,
    { readonly prefixes: ReadonlySet<string>; readonly kinds: ReadonlySet<string> }
  >
> = {
  sqlite: { prefixes: new Set(["temp", "temporary"]), kinds: new Set(["trigger"]) },
  postgres: { prefixes: new Set(["or", "replace"]), kinds: new Set(["function", "procedure"]) },
};

/**
 * The first tokens (up to six) of each statement of `sql`, in order: the top-level statements,
 * and the statements inside a routine's body, which are statements too.
 *
 * A `;` ends a statement, except inside the body of a SQLite `CREATE [TEMP] TRIGGER` (`BEGIN
 * …; END`) or of a PostgreSQL `CREATE [OR REPLACE] FUNCTION|PROCEDURE` (`BEGIN ATOMIC …;
 * END`), where it ends one of the body's statements. Both grammars close such a body only with
 * an `END` that comes first in a body statement (neither lets a body statement begin with
 * `END`), so that is where the body ends here; a `begin`, `end` or `case` elsewhere in the
 * body is a name or part of an expression, and counting them, as psql's heuristic does, let a
 * column named `begin` hide the statements after the body. The scan errs one way only: where it
 * may misjudge a body (a nested one, or a file the engine would refuse), it ends it early, so
 * that more text is read as statements, never less. A `;` inside parentheses, which neither
 * engine accepts, ends a statement too, and the parentheses with it.
 */
export function* sqlStatementHeads(
  sql: string,
  dialect: SqlDialectName,
): Generator<readonly SqlToken[]> {
  let head: SqlToken[] = [];
  /** The head of the body statement under way, while in a body. */
  let bodyHead: SqlToken[] | undefined;
  /** Whether the statement creates a routine, and whether its one body has opened yet. */
  let routine = false;
  let bodyOpened = false;
  let parentheses = 0;
  let previous: SqlToken | undefined;
  for (const token of sqlTokens(sql, dialect)) {
    if (token.kind === ";") {
      parentheses = 0;
      previous = undefined;
      if (bodyHead) {
        if (bodyHead.length > 0) yield bodyHead;
        bodyHead = [];
        continue;
      }
      if (head.length > 0) yield head;
      head = [];
      routine = false;
      bodyOpened = false;
      continue;
    }
    if (bodyHead?.length === 0 && isWord(token, "end")) {
      bodyHead = undefined;
    } else if (bodyHead) {
      if (bodyHead.length < HEAD_TOKENS) bodyHead.push(token);
    } else if (head.length < HEAD_TOKENS) {
      head.push(token);
      routine = isRoutine(head, dialect);
    }
    if (token.kind === "(") parentheses += 1;
    else if (token.kind === ")") parentheses = Math.max(0, parentheses - 1);
    else if (routine && !bodyOpened && parentheses === 0 && opensBody(previous, token, dialect)) {
      bodyHead = [];
      bodyOpened = true;
    }
    previous = token;
  }
  if (bodyHead && bodyHead.length > 0) yield bodyHead;
  if (head.length > 0) yield head;
}

/** Whether `token` is the bare word `word`, in any case. */
function isWord(token: SqlToken | undefined, word: string): boolean {
  return token?.kind === "word" && token.text.toLowerCase() === word;
}

/**
 * Whether `token` (after `previous`) opens a routine's body: SQLite's first `BEGIN` (a trigger
 * or column named `begin` before it only opens the body earlier, where no `;` can stand), and
 * PostgreSQL's `BEGIN ATOMIC`, which its function header cannot otherwise hold.
 */
function opensBody(
  previous: SqlToken | undefined,
  token: SqlToken,
  dialect: SqlDialectName,
): boolean {
  return dialect === "sqlite"
    ? isWord(token, "begin")
    : isWord(previous, "begin") && isWord(token, "atomic");
}

/** Whether a statement's first tokens are a `CREATE` of a routine with a body in `dialect`. */
function isRoutine(head: readonly SqlToken[], dialect: SqlDialectName): boolean {
  if (!isWord(head[0], "create")) return false;
  const { prefixes, kinds } = ROUTINES[dialect];
  for (const token of head.slice(1)) {
    if (token.kind !== "word") return false;
    const word = token.text.toLowerCase();
    if (kinds.has(word)) return true;
    if (!prefixes.has(word)) return false;
  }
  return false;
}
