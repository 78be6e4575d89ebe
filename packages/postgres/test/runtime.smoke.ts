import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";
import { checkSqlDatabase } from "../../../scripts/check-runtimes/sql-database-checks.js";

type Pglite = typeof import("@tessera/postgres/pglite");
type PgliteModule = typeof import("@electric-sql/pglite");
type Sql = typeof import("@tessera/sql");

export default {
  does: "migrate, write, read, and roll back a transaction on PGlite (embedded PostgreSQL)",
  imports: (runtime) =>
    runtime === "workerd"
      ? {
          notFor:
            "a Worker reaches PostgreSQL over TCP, which pg and postgres.js do only with nodejs_compat, and PGlite loads its WebAssembly from files; on Workers use D1 (@tessera/sqlite/d1)",
        }
      : ["@tessera/postgres/pglite", "@electric-sql/pglite", "@tessera/sql"],
  async run({ load, check }) {
    const { applyMigrations, wrapPglite } = await load<Pglite>("@tessera/postgres/pglite");
    const { PGlite } = await load<PgliteModule>("@electric-sql/pglite");
    const { isUniqueViolation } = await load<Sql>("@tessera/sql");
    const database = wrapPglite(await PGlite.create());
    try {
      await checkSqlDatabase(database, { applyMigrations, isUniqueViolation, check });
    } finally {
      await database.close();
    }
  },
} satisfies RuntimeSmoke;
