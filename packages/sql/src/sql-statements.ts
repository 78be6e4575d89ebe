import type { SqlDialectName } from "./database.js";
import { type SqlToken, sqlTokens } from "./sql-tokens.js";

/** How many tokens of a statement {@link sqlStatementHeads} keeps: enough to name it. */
const HEAD_TOKENS = 6;

/** Words that may stand between `CREATE` and `TRIGGER`, `FUNCTION` or `PROCEDURE`. */
const ROUTINE_PREFIXES: ReadonlySet<string> = new Set([
  "or",
  "replace",
  "temp",
  "temporary",
  "constraint",
]);
const ROUTINES: ReadonlySet<string> = new Set(["trigger", "function", "procedure"]);

/**
 * The first tokens (up to six) of each top-level statement of `sql`, in order. A `;` ends a
 * statement unless it stands inside parentheses or inside the body of a trigger, function or
 * procedure: SQLite's `CREATE TRIGGER … BEGIN …; END` and PostgreSQL's `BEGIN ATOMIC …; END`.
 * Bodies are found as psql finds them: in a `CREATE [OR REPLACE] TRIGGER|FUNCTION|PROCEDURE`
 * statement, outside parentheses, `BEGIN` opens a block, `CASE` inside a block opens one
 * too, and `END` closes one. Dollar-quoted and string bodies are literals already.
 */
export function* sqlStatementHeads(
  sql: string,
  dialect: SqlDialectName,
): Generator<readonly SqlToken[]> {
  let head: SqlToken[] = [];
  let routine = false;
  let parentheses = 0;
  let blocks = 0;
  for (const token of sqlTokens(sql, dialect)) {
    if (token.kind === ";" && parentheses === 0 && blocks === 0) {
      if (head.length > 0) yield head;
      head = [];
      routine = false;
      continue;
    }
    if (head.length < HEAD_TOKENS) {
      head.push(token);
      routine = isRoutine(head);
    }
    if (token.kind === "(") parentheses += 1;
    else if (token.kind === ")") parentheses = Math.max(0, parentheses - 1);
    else if (routine && parentheses === 0 && token.kind === "word") {
      const word = token.text.toLowerCase();
      if (word === "begin" || (word === "case" && blocks > 0)) blocks += 1;
      else if (word === "end" && blocks > 0) blocks -= 1;
    }
  }
  if (head.length > 0) yield head;
}

/** Whether a statement's first tokens are `CREATE [OR REPLACE] [TEMP] TRIGGER|FUNCTION|PROCEDURE`. */
function isRoutine(head: readonly SqlToken[]): boolean {
  if (head[0]?.kind !== "word" || head[0].text.toLowerCase() !== "create") return false;
  for (const token of head.slice(1)) {
    if (token.kind !== "word") return false;
    const word = token.text.toLowerCase();
    if (ROUTINES.has(word)) return true;
    if (!ROUTINE_PREFIXES.has(word)) return false;
  }
  return false;
}
