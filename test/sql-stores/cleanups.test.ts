import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatTimestamp } from "@tessera/core";
import { createRateLimiter } from "@tessera/ratelimit";
import {
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  SqlRateLimitStore,
} from "@tessera/ratelimit/sql";
import {
  SqlTrackedSessionStore,
  userSessionsExpiryIndexMigration,
  userSessionsFactorsMigration,
  userSessionsMigration,
} from "@tessera/session/sql";
import type { SqlDatabase } from "@tessera/sql";
import { applyMigrations } from "@tessera/sql";
import { type BetterSqliteDatabase, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { startProcessGroup } from "../support/process-group.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-cleanups-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const MINUTE = 60_000;

const usersMigration = {
  id: "0001_tessera_users",
  sql: "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL)",
};

const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const rootTsconfig = fileURLToPath(new URL("../../tsconfig.json", import.meta.url));
const processScript = fileURLToPath(new URL("./support/cleanup-process.ts", import.meta.url));

/**
 * Starts support/cleanup-process.ts on `path`: it deletes the sessions expired at NOW on `go()`.
 * Call it inside a test, which stops it when it ends.
 */
async function cleanupProcess(path: string) {
  const group = startProcessGroup(process.execPath, [tsxCli, processScript, path, String(NOW)], {
    env: { PATH: process.env.PATH ?? "", TSX_TSCONFIG_PATH: rootTsconfig },
  });
  onTestFinished(() => group.stop());
  const child = group.child;
  let output = "";
  let errors = "";
  const ready = new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("ready\n")) resolve();
    });
  });
  child.stderr.on("data", (chunk) => (errors += chunk));
  const finished = new Promise<{ exitCode: number | null; deleted: number }>((resolve) =>
    child.on("exit", (exitCode) => {
      const deleted = Number(/deleted (\d+)/.exec(output)?.[1] ?? Number.NaN);
      if (exitCode !== 0) console.error(errors);
      resolve({ exitCode, deleted });
    }),
  );
  return { ready, finished, go: () => child.stdin.write("go\n") };
}

/** A driver that runs everything on `database` and logs each write with the rows it changed. */
function recording(database: SqlDatabase) {
  const writes: { sql: string; params: readonly unknown[]; changes: number }[] = [];
  const recorded: SqlDatabase = {
    dialect: database.dialect,
    async run(sql, params = []) {
      const result = await database.run(sql, params);
      writes.push({ sql, params, changes: result.changes });
      return result;
    },
    get: (sql, params) => database.get(sql, params),
    all: (sql, params) => database.all(sql, params),
    execScript: (sql) => database.execScript(sql),
    transaction: (work) => database.transaction(work),
  };
  return {
    recorded,
    writes,
    deletes: () => writes.filter((write) => /^\s*DELETE/i.test(write.sql)),
  };
}

/** The query plan's details of a recorded statement. */
async function planOf(
  database: BetterSqliteDatabase,
  write: { sql: string; params: readonly unknown[] },
) {
  const plan = database.connection.prepare(`EXPLAIN QUERY PLAN ${write.sql}`).all(...write.params);
  return (plan as { detail: string }[]).map((step) => step.detail);
}

let files = 0;
/** A sessions database on a file with `expired` rows expired at NOW and `live` rows that are not. */
async function sessionsFile(expired: number, live: number) {
  const path = join(folder, `sessions-${++files}.db`);
  const database = openSqliteFile(path);
  await applyMigrations(database, [
    usersMigration,
    userSessionsMigration,
    userSessionsExpiryIndexMigration,
    userSessionsFactorsMigration,
  ]);
  database.connection.prepare("INSERT INTO users (email) VALUES ('ada@x.test')").run();
  const insert = database.connection.prepare(
    `INSERT INTO user_sessions (user_id, digest, browser, last_seen_at, expires_at, created_at, updated_at)
     VALUES (1, ?, 'Firefox', ?, ?, ?, ?)`,
  );
  database.connection.transaction(() => {
    for (let row = 0; row < expired + live; row++) {
      const expiresAt = formatTimestamp(row < expired ? NOW - row * 1000 : NOW + (row + 1) * 1000);
      const created = formatTimestamp(NOW - 14 * 86_400_000);
      insert.run(`digest-${row}`, created, expiresAt, created, created);
    }
  })();
  const count = async (where: string) =>
    (await database.get<{ count: number }>(
      `SELECT count(*) AS count FROM user_sessions WHERE ${where}`,
    ))!.count;
  return { path, database, count };
}

describe("deleting expired tracked sessions", () => {
  it("deletes 2,500 expired rows in 3 statements of at most 1,000, leaving live rows", async () => {
    const { database, count } = await sessionsFile(2500, 40);
    const { recorded, deletes } = recording(database);
    expect(await new SqlTrackedSessionStore(recorded).deleteExpired(NOW)).toBe(2500);
    expect(deletes().map((write) => write.changes)).toEqual([1000, 1000, 500]);
    expect(await count(`expires_at <= '${formatTimestamp(NOW)}'`)).toBe(0);
    expect(await count("1")).toBe(40);
    database.close();
  });

  it("yields to the event loop between batches, so other work runs mid-cleanup", async () => {
    const { database, count } = await sessionsFile(2500, 0);
    const cleanup = new SqlTrackedSessionStore(database).deleteExpired(NOW);
    const seenMeanwhile = new Promise<number>((resolve) =>
      setTimeout(() => resolve(count("1")), 0),
    );
    expect(await seenMeanwhile).toBe(1500);
    expect(await cleanup).toBe(2500);
    database.close();
  });

  it("lets two connections clean up at once, batch for batch: their counts add up to the rows deleted", async () => {
    const { path, database, count } = await sessionsFile(2500, 40);
    const other = openSqliteFile(path);
    const counts = await Promise.all([
      new SqlTrackedSessionStore(database).deleteExpired(NOW),
      new SqlTrackedSessionStore(other).deleteExpired(NOW),
    ]);
    // Each yields after every batch, so both took part.
    expect(counts.every((deleted) => deleted > 0)).toBe(true);
    expect(counts[0] + counts[1]).toBe(2500);
    expect(await count("1")).toBe(40);
    other.close();
    database.close();
  });

  it("lets two processes clean up one file at once: neither fails, and nothing is counted twice", async () => {
    const { path, database, count } = await sessionsFile(20_000, 40);
    const children = await Promise.all([cleanupProcess(path), cleanupProcess(path)]);
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.go();
    const outcomes = await Promise.all(children.map((child) => child.finished));
    expect(outcomes.map((outcome) => outcome.exitCode)).toEqual([0, 0]);
    expect(outcomes[0]!.deleted + outcomes[1]!.deleted).toBe(20_000);
    expect(await count("1")).toBe(40);
    database.close();
  });

  it("finds expired rows through the expires_at index", async () => {
    const { database } = await sessionsFile(10, 10);
    const indexes = await database.all<{ name: string }>("PRAGMA index_list(user_sessions)");
    expect(indexes.map((index) => index.name)).toContain("user_sessions_expires_at");
    const { recorded, deletes } = recording(database);
    await new SqlTrackedSessionStore(recorded).deleteExpired(NOW);
    const plan = await planOf(database, deletes()[0]!);
    expect(plan.join("\n")).toMatch(
      /USING (COVERING )?INDEX user_sessions_expires_at \(expires_at<\?\)/,
    );
    expect(plan.join("\n")).not.toMatch(/SCAN user_sessions/);
    database.close();
  });
});

/** A counters database with `ended` counters of windows that ended and `current` ones. */
async function countersFile(ended: number, current: number) {
  const path = join(folder, `counters-${++files}.db`);
  const database = openSqliteFile(path);
  await applyMigrations(database, [rateLimitCountersMigration, rateLimitWindowIndexMigration]);
  const windowStart = Math.floor(NOW / MINUTE) * MINUTE;
  const insert = database.connection.prepare(
    "INSERT INTO rate_limit_counters (key, window_start, count) VALUES (?, ?, 1)",
  );
  database.connection.transaction(() => {
    for (let row = 0; row < ended; row++)
      insert.run(`old-${row}`, windowStart - (1 + (row % 5)) * MINUTE);
    for (let row = 0; row < current; row++) insert.run(`new-${row}`, windowStart);
  })();
  const count = async () =>
    (await database.get<{ count: number }>("SELECT count(*) AS count FROM rate_limit_counters"))!
      .count;
  return { path, database, count };
}

describe("deleting ended rate-limit windows", () => {
  it("deletes 2,500 ended counters in 3 statements of at most 1,000, keeping the current window", async () => {
    const { database, count } = await countersFile(2500, 30);
    const { recorded, deletes } = recording(database);
    expect(await new SqlRateLimitStore(recorded).deleteEndedWindows(NOW, MINUTE)).toBe(2500);
    expect(deletes().map((write) => write.changes)).toEqual([1000, 1000, 500]);
    expect(await count()).toBe(30);
    database.close();
  });

  it("lets two connections clean up at once: no error, and their counts add up", async () => {
    const { path, database, count } = await countersFile(2500, 30);
    const other = openSqliteFile(path);
    const counts = await Promise.all([
      new SqlRateLimitStore(database).deleteEndedWindows(NOW, MINUTE),
      new SqlRateLimitStore(other).deleteEndedWindows(NOW, MINUTE),
    ]);
    expect(counts[0] + counts[1]).toBe(2500);
    expect(await count()).toBe(30);
    other.close();
    database.close();
  });

  it("finds ended windows through the window_start index", async () => {
    const { database } = await countersFile(10, 10);
    const indexes = await database.all<{ name: string }>("PRAGMA index_list(rate_limit_counters)");
    expect(indexes.map((index) => index.name)).toContain("rate_limit_counters_window_start");
    const { recorded, deletes } = recording(database);
    await new SqlRateLimitStore(recorded).deleteEndedWindows(NOW, MINUTE);
    const plan = (await planOf(database, deletes()[0]!)).join("\n");
    expect(plan).toMatch(
      /USING (COVERING )?INDEX rate_limit_counters_window_start \(window_start<\?\)/,
    );
    database.close();
  });

  it("never deletes while counting an attempt: cleanup is not a request's work", async () => {
    const { database } = await countersFile(2500, 0);
    const { recorded, deletes } = recording(database);
    let now = NOW;
    const limiter = createRateLimiter({
      store: new SqlRateLimitStore(recorded),
      clock: () => now,
    });
    await limiter.attempt("login", "203.0.113.7");
    now += MINUTE;
    await limiter.attempt("login", "203.0.113.7");
    expect(deletes()).toEqual([]);
    database.close();
  });
});

describe("the index migrations", () => {
  it("apply to a database made before them, after the tables they index", async () => {
    const database = openSqliteFile(join(folder, `upgrade-${++files}.db`));
    await applyMigrations(database, [
      usersMigration,
      rateLimitCountersMigration,
      userSessionsMigration,
    ]);
    expect(
      await applyMigrations(database, [
        usersMigration,
        rateLimitCountersMigration,
        userSessionsMigration,
        rateLimitWindowIndexMigration,
        userSessionsExpiryIndexMigration,
      ]),
    ).toEqual([rateLimitWindowIndexMigration.id, userSessionsExpiryIndexMigration.id]);
    expect(rateLimitWindowIndexMigration.id > rateLimitCountersMigration.id).toBe(true);
    expect(userSessionsExpiryIndexMigration.id > userSessionsMigration.id).toBe(true);
    database.close();
  });
});
