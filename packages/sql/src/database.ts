/** A value a store binds or reads back. Drivers map it to their engine's types. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** The SQL engines a store writes for: their SQL differs in a few statements only. */
export type SqlDialectName = "sqlite" | "postgres";

/** What a write statement reports. */
export interface RunResult {
  /** Rows inserted, updated or deleted (on D1, with the rows an ON DELETE CASCADE removed). */
  readonly changes: number;
}

/**
 * The driver shape every Tessera store is written against, on SQLite (better-sqlite3, and D1 or
 * libSQL, which are asynchronous) and PostgreSQL alike. Statements use `?` placeholders; a
 * driver for an engine that numbers them (`$1`) rewrites them. Integer columns read back as
 * numbers; a `bigint` binds as an integer.
 *
 * Stores keep each atomic step to one statement (`INSERT … ON CONFLICT … RETURNING`,
 * `DELETE … RETURNING`, a conditional `UPDATE`), which is what makes them safe under concurrent
 * requests and processes; `transaction` is for the few writes that need several.
 */
export interface SqlDatabase {
  /** Which SQL the database speaks: stores pick their statement text by it. */
  readonly dialect: SqlDialectName;
  /** Runs one write statement. */
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /** Runs one query and returns its first row, or undefined. */
  get<Row extends object>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** Runs one query and returns every row. */
  all<Row extends object>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Runs a script of several statements, without parameters, atomically. */
  execScript(sql: string): Promise<void>;
  /**
   * Runs `work` in one transaction on one connection, committed when it resolves and rolled
   * back when it throws. Use only the database `work` receives inside it; statements others
   * send meanwhile wait (SQLite) or go to other connections (PostgreSQL). Nested calls become
   * savepoints.
   */
  transaction<T>(work: (transaction: SqlDatabase) => Promise<T>): Promise<T>;
}
