/** The fields of a driver error that name what failed, on SQLite and PostgreSQL drivers. */
interface DriverError {
  readonly code?: unknown;
  readonly message?: unknown;
  /** PostgreSQL: the violated constraint or unique index (pg, PGlite). */
  readonly constraint?: unknown;
  /** The same, as postgres.js names it. */
  readonly constraint_name?: unknown;
}

function driverError(error: unknown): DriverError {
  return typeof error === "object" && error !== null ? (error as DriverError) : {};
}

function message(error: unknown): string {
  const text = driverError(error).message;
  return typeof text === "string" ? text : "";
}

/**
 * True when a driver error is a violated UNIQUE or PRIMARY KEY constraint: SQLite's
 * `SQLITE_CONSTRAINT_UNIQUE`/`_PRIMARYKEY` (or its message, for drivers without codes) and
 * PostgreSQL's SQLSTATE 23505.
 */
export function isUniqueViolation(error: unknown): boolean {
  const { code } = driverError(error);
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
  if (code === "23505") return true;
  return /UNIQUE constraint failed/.test(message(error));
}

/** True when a driver error is a failed FOREIGN KEY constraint (SQLite, or SQLSTATE 23503). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = driverError(error);
  if (code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503") return true;
  return /FOREIGN KEY constraint failed/.test(message(error));
}

/** What a unique violation names: the unique index, or the `table.column` pairs. */
export interface UniqueViolationTarget {
  /** The index or constraint name (PostgreSQL always; SQLite for an expression index). */
  readonly index?: string | undefined;
  /** `posts.slug`-style names SQLite gives for a column index. */
  readonly columns: readonly string[];
}

/**
 * What a unique violation names, so a store can tell which of its columns was taken: SQLite
 * says `UNIQUE constraint failed: posts.slug` (or `index 'name'`; D1 adds the result code after
 * it), PostgreSQL drivers report
 * the index in the error's `constraint` (postgres.js: `constraint_name`).
 */
export function uniqueViolationTarget(error: unknown): UniqueViolationTarget {
  const { constraint, constraint_name } = driverError(error);
  const reported = constraint ?? constraint_name;
  if (typeof reported === "string") return { index: reported, columns: [] };
  // D1 appends the result code: `UNIQUE constraint failed: posts.slug: SQLITE_CONSTRAINT (…)`.
  const named =
    /UNIQUE constraint failed: (.+?)(?:: SQLITE_CONSTRAINT\b.*)?$/m.exec(message(error))?.[1] ?? "";
  const parts = named.split(", ").filter((part) => part !== "");
  const index = parts.map((part) => /^index '(.+)'$/.exec(part)?.[1]).find(Boolean);
  return {
    ...(index ? { index } : {}),
    columns: parts.filter((part) => !part.startsWith("index '")),
  };
}
