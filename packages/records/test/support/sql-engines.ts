// The two SQL engines the record store runs on, for tests that must hold on both. The records
// project has no PostgreSQL of the run (see vitest.workspace.ts), so this starts one for the
// file, as the records bench does, unless TESSERA_TEST_POSTGRES_URL names a server.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgres } from "@tessera/postgres/pg";
import { applyMigrations, type Migration, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, beforeAll, onTestFinished } from "vitest";
import { startPostgresCluster } from "../../../../test/support/postgres-cluster.js";

/** A name and a fresh migrated database of that engine, closed when the test ends. */
export interface SqlEngine {
  readonly name: string;
  migrated(migrations: readonly Migration[]): Promise<SqlDatabase>;
}

/** A real SQLite file and a schema of its own on a real PostgreSQL server, per test. */
export function sqlEngines(): readonly SqlEngine[] {
  const folder = mkdtempSync(join(tmpdir(), "tessera-records-engines-"));
  let serverUrl = process.env.TESSERA_TEST_POSTGRES_URL;
  let stopServer: (() => void) | undefined;
  beforeAll(async () => {
    if (serverUrl) return;
    const cluster = await startPostgresCluster();
    serverUrl = cluster.url;
    stopServer = () => cluster.stop();
  }, 60_000);
  afterAll(() => {
    stopServer?.();
    rmSync(folder, { recursive: true, force: true });
  });

  const sqlite: SqlEngine = {
    name: "SQLite",
    async migrated(migrations) {
      const database = openSqliteFile(join(folder, `${randomUUID()}.db`));
      onTestFinished(() => database.close());
      await applyMigrations(database, migrations);
      return database;
    },
  };
  const postgres: SqlEngine = {
    name: "PostgreSQL",
    async migrated(migrations) {
      const schema = `test_${randomUUID().replaceAll("-", "")}`;
      const url = new URL(serverUrl!);
      url.searchParams.set("options", `-c search_path=${schema}`);
      const database = openPostgres(url.toString(), { max: 4 });
      await database.execScript(`CREATE SCHEMA ${schema}`);
      onTestFinished(async () => {
        await database.execScript(`DROP SCHEMA ${schema} CASCADE`);
        await database.close();
      });
      await applyMigrations(database, migrations);
      return database;
    },
  };
  return [sqlite, postgres];
}
