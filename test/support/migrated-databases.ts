import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgres, type PgDatabase } from "@tessera/postgres/pg";
import { applyMigrations, type Migration } from "@tessera/sql";
import { type BetterSqliteDatabase, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { onTestFinished } from "vitest";
import { createPostgresSchema } from "./postgres.js";

/** A SQLite file in a new folder with `migrations` applied, and a way to open more connections. */
export async function migratedSqliteFile(migrations: readonly Migration[]): Promise<{
  path: string;
  database: BetterSqliteDatabase;
  open: () => BetterSqliteDatabase;
}> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-migrated-"));
  const path = join(folder, "app.db");
  const connections: BetterSqliteDatabase[] = [];
  onTestFinished(() => {
    for (const connection of connections) connection.close();
    rmSync(folder, { recursive: true, force: true });
  });
  const open = () => {
    const connection = openSqliteFile(path);
    connections.push(connection);
    return connection;
  };
  const database = open();
  await applyMigrations(database, migrations);
  return { path, database, open };
}

/** A schema of its own on the run's PostgreSQL server with `migrations` applied, and more pools on it. */
export async function migratedPostgresSchema(migrations: readonly Migration[]): Promise<{
  url: string;
  database: PgDatabase;
  open: () => PgDatabase;
}> {
  const schema = await createPostgresSchema();
  const pools: PgDatabase[] = [];
  onTestFinished(async () => {
    for (const pool of pools) await pool.close();
    await schema.drop();
  });
  await applyMigrations(schema.database, migrations);
  const open = () => {
    const pool = openPostgres(schema.url, { max: 3 });
    pools.push(pool);
    return pool;
  };
  return { url: schema.url, database: schema.database, open };
}
