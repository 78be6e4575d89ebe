import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { outboundMigrations } from "@tessera/outbound/sql";
import { outboxMigrations } from "@tessera/outbox/sql";
import { openPostgres, type PgDatabase } from "@tessera/postgres/pg";
import { applyMigrations } from "@tessera/sql";
import { type BetterSqliteDatabase, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { onTestFinished } from "vitest";
import { createPostgresSchema } from "../../../../test/support/postgres.js";

const MIGRATIONS = [...outboxMigrations, ...outboundMigrations];

/** A SQLite file with the outbox's and outbound tables, and a way to open more connections. */
export async function sqliteFile(): Promise<{
  path: string;
  database: BetterSqliteDatabase;
  open: () => BetterSqliteDatabase;
}> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-outbound-"));
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
  await applyMigrations(database, MIGRATIONS);
  return { path, database, open };
}

/** A schema of its own on the run's PostgreSQL server with the tables, and more pools on it. */
export async function postgresSchema(): Promise<{
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
  await applyMigrations(schema.database, MIGRATIONS);
  const open = () => {
    const pool = openPostgres(schema.url, { max: 3 });
    pools.push(pool);
    return pool;
  };
  return { url: schema.url, database: schema.database, open };
}
