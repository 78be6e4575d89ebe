import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRateLimiter } from "@tessera/ratelimit";
import {
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  SqlRateLimitStore,
} from "@tessera/ratelimit/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(join(tmpdir(), "tessera-ratelimit-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function openCounters(path: string) {
  const database = openSqliteFile(path);
  await applyMigrations(database, [rateLimitCountersMigration, rateLimitWindowIndexMigration]);
  return database;
}

describe("SqlRateLimitStore", () => {
  it("counts per key and window, shared by two connections to one file", async () => {
    const path = join(folder, "shared.db");
    const first = await openCounters(path);
    const second = await openCounters(path);
    const limiterA = createRateLimiter({
      store: new SqlRateLimitStore(first),
      limit: 3,
      clock: () => 0,
    });
    const limiterB = createRateLimiter({
      store: new SqlRateLimitStore(second),
      limit: 3,
      clock: () => 0,
    });
    expect((await limiterA.attempt("login", "ip")).remaining).toBe(2);
    expect((await limiterB.attempt("login", "ip")).remaining).toBe(1);
    expect((await limiterA.attempt("login", "ip")).allowed).toBe(true);
    expect((await limiterB.attempt("login", "ip")).allowed).toBe(false);
    expect((await limiterB.attempt("login", "other ip")).allowed).toBe(true);
    first.close();
    second.close();
  });

  it("gives concurrent attempts distinct counts, so exactly the limit get through", async () => {
    const database = await openCounters(join(folder, "concurrent.db"));
    const limiter = createRateLimiter({
      store: new SqlRateLimitStore(database),
      clock: () => 0,
    });
    const decisions = await Promise.all(
      Array.from({ length: 25 }, () => limiter.attempt("token", "ip")),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    database.close();
  });

  it("deletes counters of ended windows on deleteEndedWindows, keeping the current window's", async () => {
    const database = await openCounters(join(folder, "sweep.db"));
    let now = 0;
    const store = new SqlRateLimitStore(database);
    const limiter = createRateLimiter({ store, clock: () => now });
    await limiter.attempt("g", "a");
    await limiter.attempt("g", "b");
    now = 60_000;
    expect((await limiter.attempt("g", "a")).remaining).toBe(9);
    expect(await store.deleteEndedWindows(now + 59_999)).toBe(2);
    const rows = await database.all<{ window_start: number }>(
      "SELECT window_start FROM rate_limit_counters",
    );
    expect(rows).toEqual([{ window_start: 60_000 }]);
    expect(await store.deleteEndedWindows(now + 60_000)).toBe(1);
    database.close();
  });
});
