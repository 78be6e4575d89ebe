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
 * The part of a `bun:sqlite` `Database` the driver uses. Described here rather than imported,
 * so this module loads (and type-checks) without Bun's types.
 */
export interface BunSqliteConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): {
    run(...params: SqlValue[]): { readonly changes: number };
    /** The first row, or null when there is none. */
    get(...params: SqlValue[]): unknown;
    all(...params: SqlValue[]): unknown[];
  };
  exec(sql: string): unknown;
  close(): void;
}

/** Options for {@link bunSqliteDatabase}. */
export type BunSqliteOptions = SqliteSettings;

/** A `SqlDatabase` on a `bun:sqlite` connection, with `close()` for shutdown. */
export type BunSqliteDatabase = SqliteConnectionDatabase<BunSqliteConnection>;

/**
 * Adapts an open `bun:sqlite` database (`new Database("data/app.db", { create: true })`) and
 * applies the settings every Tessera store assumes: foreign keys on, WAL journaling with
 * `synchronous = NORMAL` and a busy timeout.
 */
export function bunSqliteDatabase(
  connection: BunSqliteConnection,
  options: BunSqliteOptions = {},
): BunSqliteDatabase {
  connection.exec(connectionSettings(options.busyTimeoutMs));
  const database = synchronousDatabase(
    {
      prepare(sql) {
        const statement = connection.prepare(sql);
        return {
          run: (...params) => statement.run(...params),
          // bun:sqlite says "no row" with null; the driver shape says it with undefined.
          get: (...params) => statement.get(...params) ?? undefined,
          all: (...params) => statement.all(...params),
        };
      },
      exec: (sql) => {
        connection.exec(sql);
      },
      inTransaction: () => connection.inTransaction,
    },
    options,
  );
  return { ...database, connection, close: () => connection.close() };
}
