import type { SqlDatabase, SqlDialectName } from "./database.js";

/** A migration's SQL: one text both engines read, or one per dialect. */
export type MigrationSql = string | Readonly<Record<SqlDialectName, string>>;

/** One schema change. `id` orders migrations and is recorded once applied. */
export interface Migration {
  readonly id: string;
  readonly sql: MigrationSql;
}

/** The text of `sql` for `dialect`. */
export function migrationSql(sql: MigrationSql, dialect: SqlDialectName): string {
  return typeof sql === "string" ? sql : sql[dialect];
}

const CREATE_LEDGER: Record<SqlDialectName, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY,
  applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')))`,
  postgres: `CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY,
  applied_at TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')))`,
};

// PostgreSQL: one advisory lock, held to the end of each migration's transaction, makes
// processes that start together take turns (the number is any constant all of them share).
// SQLite: the driver's transactions begin IMMEDIATE, which already takes the file's write lock.
const LOCK_LEDGER: Partial<Record<SqlDialectName, string>> = {
  postgres: "SELECT pg_advisory_xact_lock(7261737365726100)",
};

/**
 * Applies, in `id` order, every migration not yet recorded in `schema_migrations`. Each one
 * runs with its record in a single transaction that first takes the migration lock and reads
 * the ledger again, so processes starting together apply each migration once, and a failing
 * migration leaves no trace (those before it stay applied). On an engine without a lock to
 * take (D1), a migration that fails because another process applied it meanwhile is found in
 * the ledger and skipped. Returns the ids this call applied.
 * @throws when two migrations share an id, or when a migration's SQL fails.
 */
export async function applyMigrations(
  database: SqlDatabase,
  migrations: readonly Migration[],
): Promise<string[]> {
  const ids = new Set(migrations.map((migration) => migration.id));
  if (ids.size !== migrations.length) throw new Error("two migrations share an id");
  const ordered = [...migrations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // The ledger first, on its own: then each migration's transaction reads before it writes,
  // which is all an engine that batches a transaction's writes (D1) can do.
  await database.transaction(async (transaction) => {
    await lockLedger(transaction);
    await transaction.execScript(CREATE_LEDGER[transaction.dialect]);
  });
  const appliedHere: string[] = [];
  for (;;) {
    let attempted: string | undefined;
    try {
      await database.transaction(async (transaction) => {
        await lockLedger(transaction);
        const applied = await recordedIds(transaction);
        const pending = ordered.find((migration) => !applied.has(migration.id));
        if (!pending) return;
        attempted = pending.id;
        await transaction.execScript(migrationSql(pending.sql, transaction.dialect));
        await transaction.run("INSERT INTO schema_migrations (id) VALUES (?)", [pending.id]);
      });
    } catch (error) {
      if (attempted === undefined || !(await recordedIds(database)).has(attempted)) throw error;
      continue;
    }
    if (attempted === undefined) return appliedHere;
    appliedHere.push(attempted);
  }
}

async function lockLedger(transaction: SqlDatabase): Promise<void> {
  const lock = LOCK_LEDGER[transaction.dialect];
  if (lock) await transaction.get(lock);
}

async function recordedIds(database: SqlDatabase): Promise<Set<string>> {
  const rows = await database.all<{ id: string }>("SELECT id FROM schema_migrations");
  return new Set(rows.map((row) => row.id));
}
