import { applyMigrations, type Migration } from "@tessera/sql";
import { type BetterSqliteDatabase, openSqliteFile } from "@tessera/sqlite/better-sqlite3";

/**
 * The app's SQLite file with `migrations` applied, as the driver gives it (its `connection`
 * included): for tests that look at what SQLite stored, or prepare a file as an older app left it.
 */
export async function openSqliteAppDatabase(
  path: string,
  migrations: readonly Migration[],
): Promise<BetterSqliteDatabase> {
  const database = openSqliteFile(path);
  await applyMigrations(database, migrations);
  return database;
}
