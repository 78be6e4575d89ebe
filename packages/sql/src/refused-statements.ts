import type { SqlDialectName } from "./database.js";
import { sqlStatementHeads } from "./sql-statements.js";
import type { SqlToken } from "./sql-tokens.js";

/** A statement a migration may not contain, and where it stands. */
export interface RefusedStatement {
  /** The statement as its keywords name it, upper case: `COMMIT`, `START TRANSACTION`. */
  readonly statement: string;
  /** The line of the migration's text it starts on, from 1. */
  readonly line: number;
  /** Why it may not run, as the end of a sentence that begins with the statement. */
  readonly why: string;
}

const CONTROLS_THE_TRANSACTION =
  "controls the transaction, and each migration runs with its ledger row in one transaction the runner begins and ends";

/** The statements refused, by their leading words (lower case), as they are named and why. */
const REFUSED: ReadonlyMap<string, { readonly statement: string; readonly why: string }> = new Map([
  ...["begin", "commit", "end", "rollback", "abort", "savepoint", "release"].map(
    (word) => [word, { statement: word.toUpperCase(), why: CONTROLS_THE_TRANSACTION }] as const,
  ),
  ...["start transaction", "prepare transaction"].map(
    (words) => [words, { statement: words.toUpperCase(), why: CONTROLS_THE_TRANSACTION }] as const,
  ),
  [
    "vacuum",
    {
      statement: "VACUUM",
      why: "cannot run inside a transaction, and each migration runs in one",
    },
  ],
  // SQLite ignores it inside a transaction without a word, and the table rebuild it was meant
  // for would then cascade into the tables that reference the table it drops.
  [
    "pragma foreign_keys",
    {
      statement: "PRAGMA foreign_keys",
      why: "does nothing inside a transaction, and each migration runs in one",
    },
  ],
]);

/**
 * The first statement of `sql` a migration may not contain: transaction control (`BEGIN`,
 * `START TRANSACTION`, `COMMIT`, `END`, `ROLLBACK`, `ABORT`, `SAVEPOINT`, `RELEASE`,
 * `PREPARE TRANSACTION`, and with them `COMMIT PREPARED`), `VACUUM`, and SQLite's
 * `PRAGMA foreign_keys`. Only statements count: the words inside literals, quoted names,
 * comments, dollar-quoted bodies and trigger or function bodies (`CREATE TRIGGER … BEGIN …
 * END`) do not.
 */
export function refusedStatementIn(
  sql: string,
  dialect: SqlDialectName,
): RefusedStatement | undefined {
  for (const head of sqlStatementHeads(sql, dialect)) {
    if (head[0]?.kind !== "word") continue;
    const [first, second] = leadingWords(head);
    const refused = REFUSED.get(first!) ?? REFUSED.get(`${first} ${second}`);
    if (refused) return { ...refused, line: head[0].line };
  }
  return undefined;
}

/**
 * A statement's leading words, lower case, as far as they are bare words; a schema prefix
 * (`PRAGMA main.foreign_keys`) is passed over.
 */
function leadingWords(head: readonly SqlToken[]): string[] {
  const found: string[] = [];
  for (let index = 0; index < head.length; index++) {
    const token = head[index]!;
    if (token.kind !== "word" && token.kind !== "quoted") break;
    if (head[index + 1]?.text === "." && found.length > 0) {
      index += 1;
      continue;
    }
    found.push(token.kind === "word" ? token.text.toLowerCase() : token.text);
  }
  return found;
}
