import { randomUUID } from "node:crypto";
import { openPostgres, type PgDatabase } from "@tessera/postgres/pg";
import { inject, onTestFinished } from "vitest";

/** The test run's PostgreSQL server URL with `search_path` set to `schema`. */
export function postgresUrl(schema?: string): string {
  const url = new URL(inject("postgresUrl"));
  if (schema) url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

/**
 * A database of its own for one test: a new schema on the run's PostgreSQL server (see
 * test/support/postgres-global-setup.ts), dropped with its tables and pool when the test ends.
 * Call it inside a test.
 */
export async function freshPostgresDatabase(): Promise<PgDatabase> {
  const schema = `test_${randomUUID().replaceAll("-", "")}`;
  const database = openPostgres(postgresUrl(schema), { max: 4 });
  await database.execScript(`CREATE SCHEMA ${schema}`);
  onTestFinished(async () => {
    await database.execScript(`DROP SCHEMA ${schema} CASCADE`);
    await database.close();
  });
  return database;
}
