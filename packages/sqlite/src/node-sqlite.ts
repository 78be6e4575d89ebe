import type { SqlValue } from "@tessera/sql";
import {
  connectionSettings,
  type SqliteConnectionDatabase,
  type SqliteSettings,
  synchronousDatabase,
} from "./synchronous-connection.js";

export { applyMigrations, type Migration } from "@tessera/sql";
export type { GroupCommitOptions } from "./group-commit.js";

/**
 * The part of a `node:sqlite` `DatabaseSync` (Node 22.5 and later, Deno 2) the driver uses.
 * Described here rather than imported, so this module loads on Node 20 and type-checks there.
 */
export interface NodeSqliteConnection {
  readonly isTransaction: boolean;
  prepare(sql: string): {
    run(...params: SqlValue[]): { readonly changes: number | bigint };
    get(...params: SqlValue[]): unknown;
    all(...params: SqlValue[]): unknown[];
  };
  exec(sql: string): void;
  close(): void;
}

/** Options for {@link nodeSqliteDatabase}. */
export type NodeSqliteOptions = SqliteSettings;

/** A `SqlDatabase` on a `node:sqlite` connection, with `close()` for shutdown. */
export type NodeSqliteDatabase = SqliteConnectionDatabase<NodeSqliteConnection>;

/**
 * Adapts an open `node:sqlite` database (`new DatabaseSync("data/app.db")`) and applies the
 * settings every Tessera store assumes: foreign keys on, WAL journaling with
 * `synchronous = NORMAL` and a busy timeout.
 */
export function nodeSqliteDatabase(
  connection: NodeSqliteConnection,
  options: NodeSqliteOptions = {},
): NodeSqliteDatabase {
  connection.exec(connectionSettings(options.busyTimeoutMs));
  const database = synchronousDatabase(
    {
      prepare: (sql) => connection.prepare(sql),
      exec: (sql) => connection.exec(sql),
      inTransaction: () => connection.isTransaction,
    },
    options,
  );
  return { ...database, connection, close: () => connection.close() };
}
