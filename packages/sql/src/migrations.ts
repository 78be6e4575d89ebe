import type { SqlDatabase } from "./database.js";
import {
  ensureLedger,
  lockLedger,
  type RecordedMigration,
  recordedMigrations,
  recordMigration,
  sqlChecksum,
} from "./migration-ledger.js";
import { refuseForbiddenStatements } from "./migration-refusal.js";
import { type Migration, migrationSql } from "./migration-sql.js";

export { type Migration, type MigrationSql, migrationSql } from "./migration-sql.js";

/** Options of {@link applyMigrations}. */
export interface ApplyMigrationsOptions {
  /**
   * Refuse to apply anything when an applied migration's SQL differs from what was applied
   * (by the checksum recorded with it): a migration is changed by a new one, never in place.
   * Off by default, so an app whose migrations were edited before checksums existed starts.
   */
  readonly refuseChanged?: boolean | undefined;
}

/** What one migration is, in a database (see {@link migrationStatus}). */
export interface MigrationState {
  readonly id: string;
  /**
   * `applied`; `pending`; `changed` (applied, but its SQL is not what was applied); `unknown`
   * (recorded, but not among the migrations given: applied by another version of the app).
   */
  readonly state: "applied" | "pending" | "changed" | "unknown";
  /** When it was applied, as the ledger says (`YYYY-MM-DD HH:MM:SS` UTC). */
  readonly appliedAt?: string | undefined;
}

/**
 * Applies, in `id` order, every migration not yet recorded in `schema_migrations`. Each one
 * runs with its record (and the SHA-256 of its SQL) in a single transaction that first takes
 * the migration lock and reads the ledger again, so processes starting together apply each
 * migration once, and a failing migration leaves no trace (those before it stay applied). On
 * an engine without a lock to take (D1), a migration that fails because another process
 * applied it meanwhile is found in the ledger and skipped. Before any runs, a pending migration
 * with transaction control (`BEGIN`, `COMMIT`, `SAVEPOINT`…), which would break that one
 * transaction, is refused. Returns the ids this call applied.
 * @throws when two migrations share an id, when a migration's SQL fails, a
 * `RefusedMigrationError` (nothing applied) for a refused statement, or (with `refuseChanged`)
 * when an applied migration was changed.
 *
 * @example
 * ```ts
 * import { applyMigrations, type Migration } from "@tessera/sql";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const notes: Migration = {
 *   id: "0100_create_notes",
 *   sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)",
 * };
 * const applied = await applyMigrations(openSqliteFile("data/app.db"), [notes]); // [] the second time
 * ```
 */
export async function applyMigrations(
  database: SqlDatabase,
  migrations: readonly Migration[],
  options: ApplyMigrationsOptions = {},
): Promise<string[]> {
  const ordered = inOrder(migrations);
  await ensureLedger(database);
  if (options.refuseChanged) {
    const changed = (await statesOf(database, ordered)).filter(
      (migration) => migration.state === "changed",
    );
    if (changed.length > 0) {
      throw new Error(
        `migration ${changed.map((migration) => migration.id).join(", ")} was changed after it was applied: undo the change, and make it a new migration`,
      );
    }
  }
  await refuseForbiddenStatements(database, ordered);
  const appliedHere: string[] = [];
  const rebuilds =
    database.dialect === "sqlite" && ordered.some((migration) => migration.foreignKeys === "off");
  for (;;) {
    let attempted: string | undefined;
    // Read ahead, only when some migration needs it: a rebuild must have foreign keys off
    // before its transaction begins.
    const foreignKeysOff =
      rebuilds && (await nextPending(database, ordered))?.foreignKeys === "off";
    if (foreignKeysOff) await database.run("PRAGMA foreign_keys = OFF");
    try {
      await database.transaction(async (transaction) => {
        await lockLedger(transaction);
        const applied = await recordedMigrations(transaction);
        const pending = ordered.find((migration) => !applied.has(migration.id));
        if (!pending) return;
        attempted = pending.id;
        const sql = migrationSql(pending.sql, transaction.dialect);
        await transaction.execScript(sql);
        if (foreignKeysOff) await refuseBrokenReferences(transaction, pending.id);
        await recordMigration(transaction, pending.id, await sqlChecksum(sql));
      });
    } catch (error) {
      if (attempted === undefined || !(await recordedMigrations(database)).has(attempted)) {
        throw error;
      }
      continue;
    } finally {
      if (foreignKeysOff) await database.run("PRAGMA foreign_keys = ON");
    }
    if (attempted === undefined) return appliedHere;
    appliedHere.push(attempted);
  }
}

/** The first migration the ledger does not record, read outside any transaction. */
async function nextPending(
  database: SqlDatabase,
  ordered: readonly Migration[],
): Promise<Migration | undefined> {
  const applied = await recordedMigrations(database);
  return ordered.find((migration) => !applied.has(migration.id));
}

/** Throws, rolling the migration back, when a row's foreign key points at no row. */
async function refuseBrokenReferences(transaction: SqlDatabase, id: string): Promise<void> {
  const broken = await transaction.all<{ table: string; parent: string }>(
    "PRAGMA foreign_key_check",
  );
  if (broken.length > 0) {
    const first = broken[0]!;
    throw new Error(
      `migration ${id} would leave ${broken.length} row(s) of ${first.table} referencing no row of ${first.parent}`,
    );
  }
}

/**
 * Where each migration stands in the database, in `id` order, followed by those the ledger
 * records that are not among `migrations`. Creates the ledger if there is none.
 * @throws when two migrations share an id.
 */
export async function migrationStatus(
  database: SqlDatabase,
  migrations: readonly Migration[],
): Promise<MigrationState[]> {
  const ordered = inOrder(migrations);
  await ensureLedger(database);
  return statesOf(database, ordered);
}

/** {@link migrationStatus} of migrations already in order, on a ledger that exists. */
async function statesOf(
  database: SqlDatabase,
  ordered: readonly Migration[],
): Promise<MigrationState[]> {
  const recorded = await recordedMigrations(database);
  const states: MigrationState[] = [];
  for (const migration of ordered) {
    const applied = recorded.get(migration.id);
    if (!applied) {
      states.push({ id: migration.id, state: "pending" });
      continue;
    }
    const checksum = await sqlChecksum(migrationSql(migration.sql, database.dialect));
    const changed = applied.checksum !== null && applied.checksum !== checksum;
    states.push({
      id: migration.id,
      state: changed ? "changed" : "applied",
      appliedAt: applied.appliedAt,
    });
  }
  const known = new Set(ordered.map((migration) => migration.id));
  const unknown = [...recorded.values()]
    .filter((row: RecordedMigration) => !known.has(row.id))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const row of unknown)
    states.push({ id: row.id, state: "unknown", appliedAt: row.appliedAt });
  return states;
}

/** The migrations sorted by id. @throws when two share an id. */
function inOrder(migrations: readonly Migration[]): Migration[] {
  const ids = new Set(migrations.map((migration) => migration.id));
  if (ids.size !== migrations.length) throw new Error("two migrations share an id");
  return [...migrations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
