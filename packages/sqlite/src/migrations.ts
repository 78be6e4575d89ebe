import type { SqlDatabase } from "./driver.js";

/** One schema change. `id` orders migrations and is recorded once applied. */
export interface Migration {
  readonly id: string;
  readonly sql: string;
}

/**
 * Applies, in `id` order, every migration not yet recorded in `schema_migrations`; each one runs
 * with its record in a single transaction, so a failing migration leaves no trace.
 * Returns the ids applied by this call.
 * @throws when two migrations share an id, or when a migration's SQL fails.
 */
export async function applyMigrations(
  database: SqlDatabase,
  migrations: readonly Migration[],
): Promise<string[]> {
  const ids = new Set(migrations.map((migration) => migration.id));
  if (ids.size !== migrations.length) throw new Error("two migrations share an id");
  await database.execScript(
    "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')))",
  );
  const applied = new Set(
    (await database.all<{ id: string }>("SELECT id FROM schema_migrations")).map((row) => row.id),
  );
  const pending = [...migrations]
    .filter((migration) => !applied.has(migration.id))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const migration of pending) {
    const quotedId = migration.id.replaceAll("'", "''");
    await database.execScript(
      `${migration.sql};\nINSERT INTO schema_migrations (id) VALUES ('${quotedId}');`,
    );
  }
  return pending.map((migration) => migration.id);
}
