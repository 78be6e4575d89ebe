import { randomUUID } from "node:crypto";
import { openPostgres, type PgDatabase } from "@tessera/postgres/pg";
import { inject, onTestFinished } from "vitest";

/** The test run's PostgreSQL server URL with `search_path` set to `schema`. */
export function postgresUrl(schema?: string): string {
  const url = new URL(inject("postgresUrl"));
  if (schema) url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

/** A schema of its own on the run's server: its URL, a pool on it, and `drop()`. */
export interface PostgresSchema {
  /** A `postgres://` URL whose connections use the schema (for an app's DATABASE_URL). */
  readonly url: string;
  readonly database: PgDatabase;
  /** Drops the schema with its tables and ends the pool. */
  drop(): Promise<void>;
}

/**
 * A new schema on the run's PostgreSQL server (see test/support/postgres-global-setup.ts): as
 * good as a database of one's own, and much faster to make.
 */
export async function createPostgresSchema(): Promise<PostgresSchema> {
  const schema = `test_${randomUUID().replaceAll("-", "")}`;
  const url = postgresUrl(schema);
  const database = openPostgres(url, { max: 4 });
  await database.execScript(`CREATE SCHEMA ${schema}`);
  return {
    url,
    database,
    async drop() {
      await database.execScript(`DROP SCHEMA ${schema} CASCADE`);
      await database.close();
    },
  };
}

/** A database of its own for one test, dropped when the test ends. Call it inside a test. */
export async function freshPostgresDatabase(): Promise<PgDatabase> {
  const { database, drop } = await createPostgresSchema();
  onTestFinished(drop);
  return database;
}
