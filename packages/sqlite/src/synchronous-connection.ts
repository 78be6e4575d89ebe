import { inSavepoint, type SqlDatabase, type SqlValue } from "@tessera/sql";
import { type GroupCommitOptions, groupCommit } from "./group-commit.js";

export type { GroupCommitOptions } from "./group-commit.js";

/** A prepared statement of a synchronous SQLite binding (better-sqlite3, node:sqlite). */
export interface SynchronousStatement {
  run(...params: SqlValue[]): { readonly changes: number | bigint };
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
}

/** What the driver needs of a synchronous SQLite connection. */
export interface SynchronousConnection {
  prepare(sql: string): SynchronousStatement;
  exec(sql: string): void;
  /** Whether a transaction is open on the connection. */
  inTransaction(): boolean;
}

/** Options every SQLite driver of this package takes. */
export interface SqliteSettings {
  /** Milliseconds to wait for a lock held by another connection (default 5000). */
  readonly busyTimeoutMs?: number | undefined;
  /**
   * Group commit (default off): transactions asked for in one turn of the event loop, or while
   * one is open, share one BEGIN IMMEDIATE … COMMIT, each in a savepoint of its own, and every
   * caller's promise settles after that COMMIT. Fewer commits for many small concurrent
   * transactions, for a turn of the event loop more before each begins.
   */
  readonly groupCommit?: boolean | GroupCommitOptions | undefined;
}

/** What {@link synchronousDatabase} takes besides the connection. */
export type SynchronousDatabaseOptions = Pick<SqliteSettings, "groupCommit">;

/** A {@link SqlDatabase} on a driver's connection `C`, with `close()` for shutdown. */
export interface SqliteConnectionDatabase<C> extends SqlDatabase {
  /** The underlying connection, for what the driver shape does not cover. */
  readonly connection: C;
  close(): void;
}

/**
 * The settings every Tessera store assumes. The journal settings are no-ops on `:memory:`,
 * which keeps its own.
 */
export function connectionSettings(busyTimeoutMs = 5000): string {
  return [
    `PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`,
    "PRAGMA foreign_keys = ON",
    // In WAL mode NORMAL never corrupts the database; it skips an fsync per commit, so a power
    // cut (not a crash of the process) may lose the last transactions.
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
  ].join("; ");
}

/** SQLITE_BUSY, as better-sqlite3 (`code`) and node:sqlite (`errcode`) report it. */
function isBusy(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return code === "SQLITE_BUSY" || (typeof errcode === "number" && (errcode & 0xff) === 5);
}

/**
 * The {@link SqlDatabase} shape on a synchronous SQLite connection. Statements are prepared once
 * per text. One connection has one transaction: while `transaction`'s work awaits, statements
 * from other requests wait for it instead of landing inside it; BEGIN IMMEDIATE waits for
 * another process's write lock without blocking the event loop. With `groupCommit`, the
 * transactions go in batches (see `groupCommit`).
 */
export function synchronousDatabase(
  connection: SynchronousConnection,
  options: SynchronousDatabaseOptions = {},
): SqlDatabase {
  // Stores use a fixed set of statements, so they are kept by their text.
  const statements = new Map<string, SynchronousStatement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  // The end of the open transaction, if any. Each waiter checks `while (open) await open` and
  // then runs at once, in the same turn of the event loop, so no other waiter slips in between
  // (a helper function awaited would add that turn).
  let open: Promise<void> | undefined;

  const begin = async () => {
    const { timeout } = prepare("PRAGMA busy_timeout").get() as { timeout: number };
    const deadline = Date.now() + timeout;
    for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
      connection.exec("PRAGMA busy_timeout = 0");
      try {
        connection.exec("BEGIN IMMEDIATE");
        return;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
      } finally {
        connection.exec(`PRAGMA busy_timeout = ${timeout}`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };

  // Group commit: the depth-0 transactions go in batches, which hold `open` while they run.
  const batched =
    options.groupCommit &&
    groupCommit(
      {
        exec: (sql) => connection.exec(sql),
        inTransaction: () => connection.inTransaction(),
        begin,
        held: () => open !== undefined,
        hold: () => {
          let end!: () => void;
          open = new Promise((resolve) => {
            end = resolve;
          });
          return () => {
            open = undefined;
            end();
          };
        },
      },
      options.groupCommit === true ? {} : options.groupCommit,
    );

  /** The statements, waiting for an open transaction unless they are its own (`depth > 0`). */
  const session = (depth: number): SqlDatabase => ({
    dialect: "sqlite",
    async run(sql, params = []) {
      while (depth === 0 && open) await open;
      return { changes: Number(prepare(sql).run(...params).changes) };
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
      if (connection.inTransaction()) {
        await inSavepoint(
          (statement) => connection.exec(statement),
          depth,
          async () => {
            connection.exec(sql);
          },
        );
        return;
      }
      connection.exec("BEGIN");
      try {
        connection.exec(sql);
        connection.exec("COMMIT");
      } catch (error) {
        if (connection.inTransaction()) connection.exec("ROLLBACK");
        throw error;
      }
    },
    async transaction<T>(work: (transaction: SqlDatabase) => Promise<T>): Promise<T> {
      if (depth > 0) {
        return inSavepoint(
          (sql) => connection.exec(sql),
          depth,
          () => work(session(depth + 1)),
        );
      }
      if (batched) return batched(() => work(session(1)));
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
          if (connection.inTransaction()) connection.exec("ROLLBACK");
          throw error;
        }
      } finally {
        open = undefined;
        end();
      }
    },
  });
  return session(0);
}
