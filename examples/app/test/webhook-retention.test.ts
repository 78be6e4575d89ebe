import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTimestamp } from "@tessera/core";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { appMigrations } from "../src/migrations.js";
import { startServer } from "../src/server.js";
import { openSqliteAppDatabase } from "./support/sqlite-app-database.js";

const DAY = 24 * 60 * 60 * 1000;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated app database file holding events of every status, some older than 30 days. */
async function seededDatabase(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-retention-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const path = join(folder, "app.db");
  const database = await openSqliteAppDatabase(path, appMigrations);
  const events: [string, string, number][] = [
    ["old_processed", "processed", 40],
    ["old_processing", "processing", 40],
    ["old_failed", "failed", 40],
    ["week_old_processed", "processed", 8],
    ["recent_processed", "processed", 1],
  ];
  for (const [eventId, status, daysAgo] of events) {
    const at = formatTimestamp(Date.now() - daysAgo * DAY);
    await database.run(
      "INSERT INTO webhook_events (source, event_id, payload, status, created_at, updated_at) VALUES ('orders', ?, '{}', ?, ?, ?)",
      [eventId, status, at, at],
    );
  }
  database.close();
  return path;
}

function eventIds(path: string): string[] {
  const database = new Database(path, { readonly: true });
  try {
    const rows = database.prepare("SELECT event_id FROM webhook_events ORDER BY event_id").all();
    return (rows as { event_id: string }[]).map((row) => row.event_id);
  } finally {
    database.close();
  }
}

/** Starts the app's server on the database file `path`, with `settings` added. */
async function startOn(path: string, settings: Record<string, string> = {}): Promise<void> {
  const server = await startServer(
    loadConfig({
      PORT: "0",
      DATABASE_PATH: path,
      SECRET_KEY_BASE: "retention-secret-".repeat(3),
      ...settings,
    }),
  );
  cleanups.push(() => server.close());
}

describe("webhook event retention in the app", () => {
  it("deletes processed events older than WEBHOOK_RETENTION_DAYS at start, keeping every other event", async () => {
    const path = await seededDatabase();
    await startOn(path, { WEBHOOK_RETENTION_DAYS: "7" });
    await expect
      .poll(() => eventIds(path), { interval: 20 })
      .toEqual(["old_failed", "old_processing", "recent_processed"]);
  });

  it("keeps 30 days by default", async () => {
    const path = await seededDatabase();
    await startOn(path);
    await expect
      .poll(() => eventIds(path), { interval: 20 })
      .toEqual(["old_failed", "old_processing", "recent_processed", "week_old_processed"]);
  });

  it("deletes nothing with WEBHOOK_RETENTION_DAYS=0 (keep forever)", async () => {
    const path = await seededDatabase();
    expect(loadConfig({ WEBHOOK_RETENTION_DAYS: "0" }).webhookRetentionDays).toBe(0);
    const server = await startServer(
      loadConfig({
        PORT: "0",
        DATABASE_PATH: path,
        SECRET_KEY_BASE: "retention-secret-".repeat(3),
        WEBHOOK_RETENTION_DAYS: "0",
      }),
    );
    // Closing waits for the cleanup round that started with the server.
    await server.close();
    expect(eventIds(path)).toHaveLength(5);
  });

  it.each(["-1", "1.5", "forever", "36501"])(
    "refuses WEBHOOK_RETENTION_DAYS=%j, naming it",
    (days) => {
      expect(() => loadConfig({ WEBHOOK_RETENTION_DAYS: days })).toThrow(
        /^WEBHOOK_RETENTION_DAYS is not valid/,
      );
    },
  );
});
