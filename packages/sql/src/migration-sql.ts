import type { SqlDialectName } from "./database.js";

/** A migration's SQL: one text both engines read, or one per dialect. */
export type MigrationSql = string | Readonly<Record<SqlDialectName, string>>;

/** One schema change. `id` orders migrations and is recorded once applied. */
export interface Migration {
  readonly id: string;
  readonly sql: MigrationSql;
  /**
   * SQLite: run with foreign key enforcement off, as a table rebuild must (dropping a table
   * that others reference would otherwise cascade into them), then refuse to commit unless
   * `PRAGMA foreign_key_check` finds every reference whole. The pragma only takes effect
   * outside a transaction, so it is set around the migration's; statements other requests send
   * on the same connection meanwhile are not checked either. Not for D1. PostgreSQL ignores it.
   */
  readonly foreignKeys?: "off" | undefined;
}

/** The text of `sql` for `dialect`. */
export function migrationSql(sql: MigrationSql, dialect: SqlDialectName): string {
  return typeof sql === "string" ? sql : sql[dialect];
}
