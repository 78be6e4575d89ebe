import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usersMigration } from "@tessera/accounts/sql";
import { defineModel } from "@tessera/fields";
import { openPostgres } from "@tessera/postgres/pg";
import { applyMigrations, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { startPostgresCluster } from "../../../test/support/postgres-cluster.js";
import { recordMigration, SqlRecordStore } from "../src/sql.js";

// Issue "Storage that scales out": one page of a list deep into a large table, by offset and by
// keyset (`after`), on SQLite and PostgreSQL. Goal: keyset at depth within 1.2x of depth 0.
const ROWS = 1_000_000;
const LIMIT = 50;
const DEPTHS = [0, 1_000, 100_000, ROWS - LIMIT];

const model = defineModel("item", ["title:string"]);

/** Times `run` until a second has passed (at least 11 times, at most 400): median µs. */
async function medianMicros(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  const start = performance.now();
  while (times.length < 11 || (times.length < 400 && performance.now() - start < 1000)) {
    const before = performance.now();
    await run();
    times.push((performance.now() - before) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** One user owning ROWS items, ids 1 to ROWS. */
async function seed(database: SqlDatabase): Promise<void> {
  await applyMigrations(database, [usersMigration, recordMigration(model, "0900_items")]);
  await database.run(
    "INSERT INTO users (email, created_at, updated_at) VALUES ('bench@example.com', '2026-01-01 00:00:00', '2026-01-01 00:00:00')",
  );
  const rows =
    database.dialect === "postgres"
      ? "SELECT i FROM generate_series(1, ?) AS i"
      : "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT i FROM n";
  await database.run(
    `INSERT INTO items (user_id, title, created_at, updated_at)
     SELECT 1, 'Item ' || i, '2026-01-01 00:00:00', '2026-01-01 00:00:00' FROM (${rows}) AS numbers`,
    [ROWS],
  );
  // The statistics a running database has (PostgreSQL's autovacuum gathers them after a bulk
  // load); without them the planner sorts the whole table for a deep offset.
  await database.execScript("ANALYZE");
}

async function measure(engine: string, database: SqlDatabase): Promise<string[]> {
  console.error(`seeding ${ROWS.toLocaleString("en-US")} rows on ${engine}`);
  await seed(database);
  const store = new SqlRecordStore(database, model);

  const results = [];
  for (const depth of DEPTHS) {
    console.error(`  ${engine}: depth ${depth}`);
    const offset = await medianMicros(() => store.list(1, { limit: LIMIT, offset: depth }));
    // The page at `depth` starts below the id of the row just before it.
    const after = ROWS - depth + 1;
    const keyset = await medianMicros(() =>
      store.list(1, { limit: LIMIT, offset: 0, ...(depth > 0 ? { after } : {}) }),
    );
    const page = await store.list(1, { limit: LIMIT, offset: 0, after });
    if (depth > 0 && page[0]?.id !== ROWS - depth) throw new Error("keyset page is not the page");
    results.push({ depth, offset, keyset });
  }
  const base = results[0]!;
  return results.map(
    ({ depth, offset, keyset }) =>
      `| ${engine} | ${depth.toLocaleString("en-US")} | ${offset.toFixed(0)} | ${(offset / base.offset).toFixed(2)}x | ${keyset.toFixed(0)} | ${(keyset / base.keyset).toFixed(2)}x |`,
  );
}

const folder = mkdtempSync(join(tmpdir(), "tessera-list-depth-"));
const sqlite = openSqliteFile(join(folder, "items.db"));
const server = await startPostgresCluster();
const postgres = openPostgres(server.url, { max: 1 });
try {
  const lines = [...(await measure("SQLite", sqlite)), ...(await measure("PostgreSQL", postgres))];
  process.stdout.write(
    [
      "## records: a list page deep into a large table",
      "",
      `\`SqlRecordStore.list\` of one owner with ${ROWS.toLocaleString("en-US")} rows, ${LIMIT} per page, newest first:`,
      "by `offset` and by keyset (`after` the last id of the page before). Median µs of one page",
      "(repeated for a second, at least 11 times), and each against depth 0 of its own kind.",
      "SQLite file in WAL mode; PostgreSQL 15 on the same machine.",
      "",
      "| engine | depth | offset µs | vs depth 0 | keyset µs | vs depth 0 |",
      "|---|---|---|---|---|---|",
      ...lines,
      "",
      "A keyset page costs the same at every depth, an offset page grows with the rows it skips.",
      "",
    ].join("\n"),
  );
} finally {
  sqlite.close();
  await postgres.close();
  server.stop();
  rmSync(folder, { recursive: true, force: true });
}
