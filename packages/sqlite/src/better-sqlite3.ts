import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { SqlDatabase, SqlValue } from "@tessera/sql";
import Database from "better-sqlite3";
import {
  connectionSettings,
  type SqliteConnectionDatabase,
  type SqliteSettings,
  type SynchronousDatabaseOptions,
  synchronousDatabase,
} from "./synchronous-connection.js";

// Opening a database and migrating it go together: an app that installs only this driver
// (strict pnpm sees no transitive @tessera/sql) imports both from here.
export { applyMigrations, type Migration } from "@tessera/sql";
export type { GroupCommitOptions } from "./group-commit.js";

/** Options for {@link openSqliteFile}. */
export type OpenSqliteOptions = SqliteSettings;

/** A `SqlDatabase` on a better-sqlite3 connection, with `close()` for shutdown. */
export type BetterSqliteDatabase = SqliteConnectionDatabase<Database.Database>;

/**
 * Opens (creating it and its folder if needed) a SQLite file, or `:memory:`, with foreign keys
 * on, WAL journaling (`synchronous = NORMAL`) and a busy timeout: the settings every Tessera
 * store assumes. `groupCommit: true` makes the transactions of one turn of the event loop share
 * one COMMIT (see the package README for its trade-off).
 *
 * @example
 * ```ts
 * import { accountMigrations } from "@tessera/accounts/sql";
 * import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const database = openSqliteFile("data/app.db"); // or ":memory:"
 * await applyMigrations(database, accountMigrations);
 * const users = await database.all<{ id: number; email: string }>("SELECT id, email FROM users");
 * database.close();
 * ```
 */
export function openSqliteFile(
  path: string,
  options: OpenSqliteOptions = {},
): BetterSqliteDatabase {
  if (path !== ":memory:" && path !== "") mkdirSync(dirname(path), { recursive: true });
  const connection = new Database(path);
  connection.exec(connectionSettings(options.busyTimeoutMs));
  return wrapBetterSqlite(connection, options);
}

/**
 * Adapts an open better-sqlite3 connection to the {@link SqlDatabase} shape (see
 * `synchronousDatabase` for how statements and transactions take turns on it), with
 * `groupCommit` if asked.
 */
export function wrapBetterSqlite(
  connection: Database.Database,
  options: SynchronousDatabaseOptions = {},
): BetterSqliteDatabase {
  const database = synchronousDatabase(
    {
      prepare: (sql) => connection.prepare<SqlValue[]>(sql),
      exec: (sql) => connection.exec(sql),
      inTransaction: () => connection.inTransaction,
    },
    options,
  );
  return { ...database, connection, close: () => connection.close() };
}
