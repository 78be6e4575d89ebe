import type { Runtime, RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";
import { checkSqlDatabase } from "../../../scripts/check-runtimes/sql-database-checks.js";

type SqlDatabase = import("@tessera/sql").SqlDatabase;
type Migrations = Pick<typeof import("@tessera/sql"), "applyMigrations">;

/** The driver each runtime has: its own SQLite where it brings one, D1 on workerd. */
const DRIVERS: Readonly<Record<Runtime, string>> = {
  "node-esm": "@tessera/sqlite/better-sqlite3",
  "node-cjs": "@tessera/sqlite/better-sqlite3",
  bun: "@tessera/sqlite/bun",
  deno: "@tessera/sqlite/node-sqlite",
  workerd: "@tessera/sqlite/d1",
};

export default {
  does: "migrate, write, read, and roll back a transaction (better-sqlite3, bun:sqlite, node:sqlite, D1)",
  imports: (runtime) => [DRIVERS[runtime], "@tessera/sql"],
  async run({ runtime, load, check, bindings }) {
    const driver = await load<Migrations & Record<string, (connection: unknown) => SqlDatabase>>(
      DRIVERS[runtime],
    );
    const { isUniqueViolation } = await load<typeof import("@tessera/sql")>("@tessera/sql");
    const database = await open(runtime, driver, bindings, load);
    await checkSqlDatabase(database, { ...driver, isUniqueViolation, check });
  },
} satisfies RuntimeSmoke;

/** An in-memory database on the runtime's own SQLite, or the Worker's D1 binding. */
async function open(
  runtime: Runtime,
  driver: Record<string, (connection: unknown) => SqlDatabase>,
  bindings: Readonly<Record<string, unknown>>,
  load: <Module>(specifier: string) => Promise<Module>,
): Promise<SqlDatabase> {
  switch (runtime) {
    case "workerd":
      return driver.d1Database!(bindings.DB);
    case "bun": {
      const { Database } = await load<{ Database: new (path: string) => unknown }>("bun:sqlite");
      return driver.bunSqliteDatabase!(new Database(":memory:"));
    }
    case "deno": {
      const { DatabaseSync } = await load<{ DatabaseSync: new (path: string) => unknown }>(
        "node:sqlite",
      );
      return driver.nodeSqliteDatabase!(new DatabaseSync(":memory:"));
    }
    default:
      return (driver as unknown as { openSqliteFile(path: string): SqlDatabase }).openSqliteFile(
        ":memory:",
      );
  }
}
