export { type BatchedDelete, CLEANUP_BATCH_SIZE, deleteInBatches } from "./batched-delete.js";
export {
  isForeignKeyViolation,
  isUniqueViolation,
  type UniqueViolationTarget,
  uniqueViolationTarget,
} from "./constraint-errors.js";
export type { RunResult, SqlDatabase, SqlDialectName, SqlValue } from "./database.js";
export { RefusedMigrationError } from "./migration-refusal.js";
export {
  type ApplyMigrationsOptions,
  applyMigrations,
  type Migration,
  type MigrationSql,
  type MigrationState,
  migrationSql,
  migrationStatus,
} from "./migrations.js";
export { portableDdl } from "./portable-ddl.js";
export { type RefusedStatement, refusedStatementIn } from "./refused-statements.js";
export { inSavepoint } from "./savepoint.js";
export { type SqlToken, sqlTokens } from "./sql-tokens.js";
