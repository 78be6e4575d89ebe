import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { applyMigrations, type Migration } from "@tessera/sql";
import { type BetterSqliteDatabase, openSqliteFile } from "@tessera/sqlite/better-sqlite3";

/**
 * Opens the app's SQLite file (creating its folder) and applies every migration not yet
 * applied. `:memory:` gives a private in-memory database.
 */
export async function openAppDatabase(
  path: string,
  migrations: readonly Migration[],
): Promise<BetterSqliteDatabase> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const database = openSqliteFile(path);
  try {
    await applyMigrations(database, migrations);
  } catch (error) {
    database.close();
    throw error;
  }
  return database;
}
