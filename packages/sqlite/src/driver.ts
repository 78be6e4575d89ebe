/** A value SQLite can bind or return. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** What a write statement reports. */
export interface RunResult {
  /** Rows inserted, updated or deleted. */
  readonly changes: number;
  /** Row id of the last insert (0 when none). */
  readonly lastInsertRowid: number;
}

/**
 * The driver shape every Tessera SQLite store is written against. It is asynchronous so that
 * Cloudflare D1 and libSQL can implement it as well as better-sqlite3. Stores never hold a
 * transaction open across an `await`: each atomic step is one statement (`RETURNING`,
 * `ON CONFLICT`), which is also what makes them safe under concurrent requests.
 */
export interface SqlDatabase {
  /** Runs one write statement. */
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /** Runs one query and returns its first row, or undefined. */
  get<Row extends object>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** Runs one query and returns every row. */
  all<Row extends object>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Runs a script of several statements in one transaction (used by migrations). */
  execScript(sql: string): Promise<void>;
}

/** True when a driver error is a violation of a UNIQUE or PRIMARY KEY constraint. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
  return error instanceof Error && /UNIQUE constraint failed/.test(error.message);
}
