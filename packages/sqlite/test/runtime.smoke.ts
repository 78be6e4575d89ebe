import type { Runtime, RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

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
    const applied = await driver.applyMigrations(database, [
      {
        id: "0001_notes",
        sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE)",
      },
    ]);
    check(applied.join() === "0001_notes", "the migration is applied once");
    check((await driver.applyMigrations(database, [])).length === 0, "nothing left to apply");
    const row = await database.get<{ id: number }>(
      "INSERT INTO notes (body) VALUES (?) RETURNING id",
      ["hello"],
    );
    check(row?.id === 1, "INSERT … RETURNING gives the new id");
    const duplicate = await database
      .run("INSERT INTO notes (body) VALUES (?)", ["hello"])
      .catch((error: unknown) => error);
    check(isUniqueViolation(duplicate), "a duplicate is recognised as a unique violation");
    await database
      .transaction(async (transaction) => {
        await transaction.run("INSERT INTO notes (body) VALUES (?)", ["rolled back"]);
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const bodies = await database.all<{ body: string }>("SELECT body FROM notes ORDER BY id");
    check(bodies.map((note) => note.body).join() === "hello", "the rolled-back write is gone");
    check(
      (await database.get("SELECT 1 FROM notes WHERE body = ?", ["none"])) === undefined,
      "no row is undefined",
    );
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
