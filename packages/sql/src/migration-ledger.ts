import type { SqlDatabase, SqlDialectName } from "./database.js";

// The `schema_migrations` table: one row per applied migration, with when and the SHA-256 of
// the SQL it ran (null for rows recorded before checksums were kept).

const CREATE_LEDGER: Record<SqlDialectName, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY,
  applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')), checksum TEXT)`,
  postgres: `CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY,
  applied_at TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')),
  checksum TEXT)`,
};

// PostgreSQL: one advisory lock, held to the end of each migration's transaction, makes
// processes that start together take turns (the number is any constant all of them share).
// SQLite: the driver's transactions begin IMMEDIATE, which already takes the file's write lock.
const LOCK_LEDGER: Partial<Record<SqlDialectName, string>> = {
  postgres: "SELECT pg_advisory_xact_lock(7261737365726100)",
};

/** Takes the migration lock for the rest of `transaction` (a no-op where the engine locks). */
export async function lockLedger(transaction: SqlDatabase): Promise<void> {
  const lock = LOCK_LEDGER[transaction.dialect];
  if (lock) await transaction.get(lock);
}

/**
 * Creates the ledger, or adds the `checksum` column to one made before it existed. Two
 * transactions, each reading before it writes, which an engine that batches a transaction's
 * writes (D1) needs too.
 */
export async function ensureLedger(database: SqlDatabase): Promise<void> {
  await database.transaction(async (transaction) => {
    await lockLedger(transaction);
    await transaction.execScript(CREATE_LEDGER[transaction.dialect]);
  });
  await database.transaction(async (transaction) => {
    await lockLedger(transaction);
    if (transaction.dialect === "postgres") {
      await transaction.execScript(
        "ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum TEXT",
      );
      return;
    }
    const columns = await transaction.all<{ name: string }>(
      "SELECT name FROM pragma_table_info('schema_migrations')",
    );
    if (!columns.some((column) => column.name === "checksum")) {
      await transaction.execScript("ALTER TABLE schema_migrations ADD COLUMN checksum TEXT");
    }
  });
}

/** A row of the ledger. */
export interface RecordedMigration {
  readonly id: string;
  readonly appliedAt: string;
  readonly checksum: string | null;
}

/** Every applied migration, by id. */
export async function recordedMigrations(
  database: SqlDatabase,
): Promise<Map<string, RecordedMigration>> {
  const rows = await database.all<{ id: string; applied_at: string; checksum: string | null }>(
    "SELECT id, applied_at, checksum FROM schema_migrations",
  );
  return new Map(
    rows.map((row) => [row.id, { id: row.id, appliedAt: row.applied_at, checksum: row.checksum }]),
  );
}

/** Records a migration as applied, inside the transaction that applied it. */
export async function recordMigration(
  transaction: SqlDatabase,
  id: string,
  checksum: string,
): Promise<void> {
  await transaction.run("INSERT INTO schema_migrations (id, checksum) VALUES (?, ?)", [
    id,
    checksum,
  ]);
}

/** The SHA-256 of a migration's SQL text, in hex (WebCrypto: the same on every runtime). */
export async function sqlChecksum(sql: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(sql));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
