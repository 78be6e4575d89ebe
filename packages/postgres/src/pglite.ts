import type { PGliteInterface, Transaction } from "@electric-sql/pglite";
import { inSavepoint, type SqlDatabase, type SqlValue } from "@tessera/sql";
import { INT8, parseInt8 } from "./int8.js";
import { numberedStatement } from "./placeholders.js";

// Opening a database and migrating it go together: an app that installs only this driver
// (strict pnpm sees no transitive @tessera/sql) imports both from here.
export { applyMigrations, type Migration } from "@tessera/sql";

/** What runs statements: the database itself, or the transaction open on it. */
type Target = Pick<PGliteInterface, "query" | "exec"> | Transaction;

const options = { parsers: { [INT8]: parseInt8 } };

/**
 * Adapts a PGlite database (PostgreSQL compiled to WebAssembly, in this process) to the
 * `SqlDatabase` shape: the same SQL as a PostgreSQL server, for tests and single-process apps
 * without one. PGlite runs one statement at a time; while a transaction is open, statements
 * sent outside it wait for it to end. `close()` closes the database.
 */
export function wrapPglite(database: PGliteInterface): SqlDatabase & { close(): Promise<void> } {
  return { ...session(database, 0), close: () => database.close() };
}

async function rows(target: Target, sql: string, params: readonly SqlValue[]) {
  return (await target.query(numberedStatement(sql), [...params], options)).rows;
}

function session(target: Target, depth: number): SqlDatabase {
  return {
    dialect: "postgres",
    async run(sql, params = []) {
      const result = await target.query(numberedStatement(sql), [...params], options);
      return { changes: result.affectedRows ?? 0 };
    },
    async get<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await rows(target, sql, params))[0] as Row | undefined;
    },
    async all<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await rows(target, sql, params)) as Row[];
    },
    async execScript(sql) {
      // exec runs the statements as one implicit transaction, or inside the open one.
      await target.exec(sql);
    },
    async transaction<T>(work: (transaction: SqlDatabase) => Promise<T>): Promise<T> {
      if (depth === 0) {
        return (target as PGliteInterface).transaction((transaction) =>
          work(session(transaction, 1)),
        );
      }
      return inSavepoint(
        (sql) => target.exec(sql),
        depth,
        () => work(session(target, depth + 1)),
      );
    },
  };
}
