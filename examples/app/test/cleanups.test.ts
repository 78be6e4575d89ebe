import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTimestamp } from "@tessera/core";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanupTasks, runCleanups } from "../src/cleanups.js";
import { loadConfig } from "../src/config.js";
import { appMigrations } from "../src/migrations.js";
import { startServer } from "../src/server.js";
import { openSqliteAppDatabase } from "./support/sqlite-app-database.js";

const folders: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * An app database file left by an earlier run: 2,500 expired device rows and 20 live ones,
 * 1,500 counters of rate-limit windows that ended, 7 of the current one, and three refresh
 * token families: one expired, one revoked two days ago, one live.
 */
async function databaseLeftBehind(now: number): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-cleanups-"));
  folders.push(folder);
  const path = join(folder, "app.db");
  const database = await openSqliteAppDatabase(path, appMigrations);
  const connection = database.connection;
  connection
    .prepare(
      "INSERT INTO users (email, password_digest, created_at, updated_at) VALUES ('ada@example.com', '', ?, ?)",
    )
    .run(formatTimestamp(now), formatTimestamp(now));
  const session = connection.prepare(
    `INSERT INTO user_sessions (user_id, digest, browser, last_seen_at, expires_at, created_at, updated_at)
     VALUES (1, ?, 'Firefox', ?, ?, ?, ?)`,
  );
  const counter = connection.prepare(
    "INSERT INTO rate_limit_counters (key, window_start, count) VALUES (?, ?, 1)",
  );
  const family = connection.prepare(
    `INSERT INTO refresh_token_families (user_id, created_at, last_used_at, expires_at, revoked_at, auth_time, factors)
     VALUES (1, ?, ?, ?, ?, 0, 'password')`,
  );
  const window = Math.floor(now / 60_000) * 60_000;
  const created = formatTimestamp(now - 20 * 86_400_000);
  connection.transaction(() => {
    for (let row = 0; row < 2520; row++) {
      const expiresAt = row < 2500 ? now - 1000 - row * 1000 : now + 3_600_000;
      session.run(`digest-${row}`, created, formatTimestamp(expiresAt), created, created);
    }
    for (let row = 0; row < 1500; row++)
      counter.run(`old-${row}`, window - 60_000 * (1 + (row % 30)));
    for (let row = 0; row < 7; row++) counter.run(`now-${row}`, window);
    const later = formatTimestamp(now + 86_400_000);
    family.run(created, created, formatTimestamp(now - 1000), null);
    family.run(created, created, later, formatTimestamp(now - 2 * 86_400_000));
    family.run(created, created, later, null);
  })();
  database.close();
  return path;
}

function countRows(path: string, sql: string): number {
  const database = new Database(path, { readonly: true });
  try {
    return (database.prepare(sql).get() as { count: number }).count;
  } finally {
    database.close();
  }
}

describe("the cleanups of the example app", () => {
  it("run when the server starts, before any request: expired sessions and ended windows go, live rows stay", async () => {
    const now = Date.now();
    const path = await databaseLeftBehind(now);
    const server = await startServer(
      loadConfig({ PORT: "0", DATABASE_PATH: path, SECRET_KEY_BASE: "c".repeat(64) }),
    );
    try {
      const expired = `SELECT count(*) AS count FROM user_sessions WHERE expires_at <= '${formatTimestamp(now)}'`;
      const ended = `SELECT count(*) AS count FROM rate_limit_counters WHERE window_start < ${Math.floor(now / 60_000) * 60_000}`;
      for (let waited = 0; waited < 10_000; waited += 50) {
        if (countRows(path, expired) === 0 && countRows(path, ended) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(countRows(path, expired)).toBe(0);
      expect(countRows(path, ended)).toBe(0);
      expect(countRows(path, "SELECT count(*) AS count FROM user_sessions")).toBe(20);
      expect(countRows(path, "SELECT count(*) AS count FROM rate_limit_counters")).toBe(7);
    } finally {
      await server.close();
    }
  });

  it("run every package's cleanup task, each counting the rows it deleted", async () => {
    const now = Date.now();
    const path = await databaseLeftBehind(now);
    const database = await openSqliteAppDatabase(path, appMigrations);
    try {
      const event = database.connection.prepare(
        `INSERT INTO webhook_events (source, event_id, payload, status, created_at, updated_at)
         VALUES ('orders', ?, '{}', ?, ?, ?)`,
      );
      for (let row = 0; row < 40; row++) {
        const at = formatTimestamp(now - (row < 30 ? 31 : 29) * 86_400_000);
        event.run(`evt_${row}`, "processed", at, at);
      }
      event.run("evt_stuck", "processing", formatTimestamp(0), formatTimestamp(0));
      // Mails: sent 8 and 6 days ago, and one that failed 30 days ago (kept with its error).
      const mail = database.connection.prepare(
        `INSERT INTO outbox_items (queue, idempotency_key, payload, status, attempts, run_at, created_at, updated_at, finished_at, last_error)
         VALUES ('mail', ?, '{}', ?, 1, ?, ?, ?, ?, ?)`,
      );
      for (const [key, status, daysAgo] of [
        ["sent-8-days-ago", "done", 8],
        ["sent-6-days-ago", "done", 6],
        ["failed-30-days-ago", "failed", 30],
      ] as const) {
        const at = now - daysAgo * 86_400_000;
        mail.run(key, status, at, at, at, at, status === "failed" ? "550 no such mailbox" : null);
      }
      const targets = {
        database,
        trackedSessions: new SqlTrackedSessionStore(database),
        webhookRetentionMs: 30 * 86_400_000,
        outboundRetentionMs: 30 * 86_400_000,
      };
      expect(cleanupTasks(targets).map((task) => task.name)).toEqual([
        "expired-tracked-sessions",
        "expired-refresh-tokens",
        "ended-rate-limit-windows",
        "quiet-failure-streaks",
        "old-audit-events",
        "old-webhook-events",
        "old-outbox-items",
        "old-webhook-messages",
      ]);
      expect(await runCleanups(targets, () => now)).toEqual({
        "expired-tracked-sessions": 2500,
        "expired-refresh-tokens": 2,
        "ended-rate-limit-windows": 1500,
        "quiet-failure-streaks": 0,
        "old-audit-events": 0,
        "old-webhook-events": 30,
        "old-outbox-items": 1,
        "old-webhook-messages": 0,
      });
      expect(
        database.connection
          .prepare("SELECT idempotency_key FROM outbox_items ORDER BY id")
          .pluck()
          .all(),
      ).toEqual(["sent-6-days-ago", "failed-30-days-ago"]);
      expect(countRows(path, "SELECT count(*) AS count FROM user_sessions")).toBe(20);
      expect(countRows(path, "SELECT count(*) AS count FROM rate_limit_counters")).toBe(7);
      expect(countRows(path, "SELECT count(*) AS count FROM webhook_events")).toBe(11);
      // Without tracked sessions, and with every webhook event and message kept: the windows'
      // and the mails'.
      expect(
        cleanupTasks({
          database,
          trackedSessions: undefined,
          webhookRetentionMs: undefined,
          outboundRetentionMs: undefined,
        }).map((task) => task.name),
      ).toEqual([
        "expired-refresh-tokens",
        "ended-rate-limit-windows",
        "quiet-failure-streaks",
        "old-audit-events",
        "old-outbox-items",
      ]);
    } finally {
      await database.close();
    }
  });

  it("has the indexes the cleanups search by", async () => {
    const path = await databaseLeftBehind(Date.now());
    const database = new Database(path, { readonly: true });
    const indexes = (table: string) =>
      (database.prepare(`PRAGMA index_list(${table})`).all() as { name: string }[]).map(
        (index) => index.name,
      );
    expect(indexes("user_sessions")).toContain("user_sessions_expires_at");
    expect(indexes("rate_limit_counters")).toContain("rate_limit_counters_window_start");
    database.close();
  });
});
