import type { SqlDatabase } from "./database.js";
import { recordedMigrations } from "./migration-ledger.js";
import { type Migration, migrationSql } from "./migration-sql.js";
import { type RefusedStatement, refusedStatementIn } from "./refused-statements.js";

/**
 * Thrown by `applyMigrations`, before any migration runs, when a pending migration contains a
 * statement no migration may (transaction control such as `COMMIT`; see
 * {@link refusedStatementIn}). `id` names the migration, `refused` the statement and its line.
 */
export class RefusedMigrationError extends Error {
  override readonly name = "RefusedMigrationError";
  readonly id: string;
  readonly refused: RefusedStatement;

  constructor(id: string, refused: RefusedStatement) {
    super(`migration ${id}, line ${refused.line}: ${refused.statement} ${refused.why}`);
    this.id = id;
    this.refused = refused;
  }
}

/**
 * Throws {@link RefusedMigrationError} for the first migration the ledger does not record
 * whose SQL (for the database's dialect) holds a refused statement. Applied migrations are
 * not read again: they ran already, and refusing them now would stop an app that starts.
 */
export async function refuseForbiddenStatements(
  database: SqlDatabase,
  ordered: readonly Migration[],
): Promise<void> {
  const applied = await recordedMigrations(database);
  for (const migration of ordered) {
    if (applied.has(migration.id)) continue;
    const refused = refusedStatementIn(
      migrationSql(migration.sql, database.dialect),
      database.dialect,
    );
    if (refused) throw new RefusedMigrationError(migration.id, refused);
  }
}
