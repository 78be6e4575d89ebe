import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { RunResult, SqlDatabase, SqlValue } from "./driver.js";

/** Options for {@link openSqliteFile}. */
export interface OpenSqliteOptions {
  /** Milliseconds to wait for a lock held by another connection (default 5000). */
  readonly busyTimeoutMs?: number;
}

/** A {@link SqlDatabase} on a better-sqlite3 connection, with `close()` for shutdown. */
export interface BetterSqliteDatabase extends SqlDatabase {
  /** The underlying connection, for what the driver shape does not cover. */
  readonly connection: Database.Database;
  close(): void;
}

/**
 * Opens (creating it and its folder if needed) a SQLite file, or `:memory:`, with foreign keys
 * on, WAL journaling (`synchronous = NORMAL`) and a busy timeout: the settings every Tessera
 * store assumes.
 */
export function openSqliteFile(
  path: string,
  options: OpenSqliteOptions = {},
): BetterSqliteDatabase {
  if (path !== ":memory:" && path !== "") mkdirSync(dirname(path), { recursive: true });
  const connection = new Database(path);
  connection.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  connection.pragma("foreign_keys = ON");
  if (path !== ":memory:") {
    connection.pragma("journal_mode = WAL");
    // In WAL mode NORMAL never corrupts the database; it skips an fsync per commit, so a
    // power cut (not a crash of the process) may lose the last transactions.
    connection.pragma("synchronous = NORMAL");
  }
  return wrapBetterSqlite(connection);
}

/** Adapts an open better-sqlite3 connection to the {@link SqlDatabase} shape. */
export function wrapBetterSqlite(connection: Database.Database): BetterSqliteDatabase {
  // Prepared statements are cached by their SQL text: stores use a fixed set of statements.
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    connection,
    async run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
      const result = prepare(sql).run(...params);
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    },
    async get<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return prepare(sql).get(...params) as Row | undefined;
    },
    async all<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return prepare(sql).all(...params) as Row[];
    },
    async execScript(sql: string) {
      connection.transaction(() => connection.exec(sql))();
    },
    close() {
      statements.clear();
      connection.close();
    },
  };
}
