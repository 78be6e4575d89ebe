import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { inSavepoint, type SqlDatabase, type SqlValue } from "@tessera/sql";

// Opening a database and migrating it go together: an app that installs only this driver
// (strict pnpm sees no transitive @tessera/sql) imports both from here.
export { applyMigrations, type Migration } from "@tessera/sql";

import Database from "better-sqlite3";

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
  // The end of the transaction open on this connection, if any. One connection has one
  // transaction: while `work` awaits, statements from other requests wait for it instead of
  // landing inside it. Each waits with `while (open) await open` and then runs at once, in the
  // same turn of the event loop, so no other waiter can slip in between (a helper function
  // awaited would add that turn).
  let open: Promise<void> | undefined;
  // BEGIN IMMEDIATE waits for another connection's write lock without blocking the event loop:
  // a synchronous busy wait would also stall a transaction of this process that holds the lock.
  const begin = async () => {
    const busyTimeoutMs = connection.pragma("busy_timeout", { simple: true }) as number;
    const deadline = Date.now() + busyTimeoutMs;
    for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
      connection.pragma("busy_timeout = 0");
      try {
        connection.exec("BEGIN IMMEDIATE");
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== "SQLITE_BUSY" || Date.now() >= deadline) {
          throw error;
        }
      } finally {
        connection.pragma(`busy_timeout = ${busyTimeoutMs}`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };

  /** The statements, waiting for an open transaction unless they are its own (`depth > 0`). */
  const session = (depth: number): SqlDatabase => ({
    dialect: "sqlite",
    async run(sql, params = []) {
      while (depth === 0 && open) await open;
      return { changes: prepare(sql).run(...params).changes };
    },
    async get<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      while (depth === 0 && open) await open;
      return prepare(sql).get(...params) as Row | undefined;
    },
    async all<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      while (depth === 0 && open) await open;
      return prepare(sql).all(...params) as Row[];
    },
    async execScript(sql) {
      while (depth === 0 && open) await open;
      // better-sqlite3 makes this a savepoint when a transaction is already open.
      connection.transaction(() => connection.exec(sql))();
    },
    async transaction<T>(work: (transaction: SqlDatabase) => Promise<T>): Promise<T> {
      if (depth > 0) {
        return inSavepoint(
          (sql) => connection.exec(sql),
          depth,
          () => work(session(depth + 1)),
        );
      }
      while (open) await open;
      let end!: () => void;
      open = new Promise((resolve) => {
        end = resolve;
      });
      try {
        // IMMEDIATE takes the write lock now, so other processes wait at BEGIN rather than
        // fail at a later write of this transaction.
        await begin();
        try {
          const result = await work(session(1));
          connection.exec("COMMIT");
          return result;
        } catch (error) {
          if (connection.inTransaction) connection.exec("ROLLBACK");
          throw error;
        }
      } finally {
        open = undefined;
        end();
      }
    },
  });

  return {
    ...session(0),
    connection,
    close() {
      statements.clear();
      connection.close();
    },
  };
}
