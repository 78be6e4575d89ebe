// Outbound webhook messages and their attempts are deleted by the app's cleanups once older than
// OUTBOUND_RETENTION_DAYS (30 by default): a note's message delivered 31 days ago goes at the
// next start, one of 11 days ago stays. The app's clock is moved; the database file is kept.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { type RunningServer, startServer } from "../src/server.js";
import { bearerTokenFor, callJsonApi } from "./support/json-api.js";
import { newClientAddress } from "./support/test-server.js";

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

let receiver: Server;
let receiverUrl: string;
let deliveries = 0;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      deliveries++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh database file, removed after the test. */
function databaseFile(): string {
  const folder = mkdtempSync(join(tmpdir(), "tessera-outbound-retention-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return join(folder, "app.db");
}

/** Starts the app on `path` at the time `now()` reads, with `settings` added. */
function startAt(path: string, now: () => number, settings: Record<string, string> = {}) {
  return startServer(
    loadConfig({
      PORT: "0",
      DATABASE_PATH: path,
      SECRET_KEY_BASE: "outbound-retention-".repeat(3),
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      ...settings,
    }),
    { clock: now },
  );
}

function rows(path: string, sql: string): unknown[] {
  const database = new Database(path, { readonly: true });
  try {
    return database.prepare(sql).pluck().all();
  } finally {
    database.close();
  }
}

/**
 * A user with one endpoint creates a note at T0 and another 20 days later, each delivered:
 * answers the two messages' ids, oldest first.
 */
async function twoDeliveredNotes(path: string): Promise<string[]> {
  let now = T0;
  const server: RunningServer = await startAt(path, () => now);
  try {
    const email = `retention.${newClientAddress()}@example.com`;
    const client = newClientAddress();
    const token = await bearerTokenFor(server.url, email, { client });
    const endpoint = await callJsonApi(server.url, "POST", "/api/webhook_endpoints", token, {
      url: receiverUrl,
    });
    expect(endpoint.status).toBe(201);
    const before = deliveries;
    expect(
      (await callJsonApi(server.url, "POST", "/api/notes", token, { title: "old" })).status,
    ).toBe(201);
    await server.deliverWebhooks();
    now = T0 + 20 * DAY;
    const fresh = await bearerTokenFor(server.url, email, { client, existing: true });
    expect(
      (await callJsonApi(server.url, "POST", "/api/notes", fresh, { title: "new" })).status,
    ).toBe(201);
    await server.deliverWebhooks();
    expect(deliveries - before).toBe(2);
  } finally {
    await server.close();
  }
  const messages = rows(path, "SELECT id FROM webhook_messages ORDER BY created_at") as string[];
  expect(messages).toHaveLength(2);
  expect(rows(path, "SELECT message_id FROM webhook_attempts ORDER BY id")).toEqual(messages);
  return messages;
}

describe("outbound webhook message retention in the app", () => {
  it("deletes a message older than 30 days with its attempts at the next cleanup, keeping a newer one", async () => {
    const path = databaseFile();
    const [old, recent] = await twoDeliveredNotes(path);
    // 31 days after the first note: the start's cleanup round, awaited by close().
    const server = await startAt(path, () => T0 + 31 * DAY);
    await server.close();
    expect(rows(path, "SELECT id FROM webhook_messages")).toEqual([recent]);
    expect(rows(path, "SELECT message_id FROM webhook_attempts")).toEqual([recent]);
    expect(old).not.toBe(recent);
    expect(rows(path, "SELECT count(*) FROM webhook_endpoints")).toEqual([1]);
  });

  it("keeps them as long as OUTBOUND_RETENTION_DAYS says, and forever with 0", async () => {
    const path = databaseFile();
    const messages = await twoDeliveredNotes(path);
    for (const days of ["45", "0"]) {
      const server = await startAt(path, () => T0 + 44 * DAY, { OUTBOUND_RETENTION_DAYS: days });
      await server.close();
      expect(rows(path, "SELECT id FROM webhook_messages ORDER BY created_at")).toEqual(messages);
    }
    const server = await startAt(path, () => T0 + 44 * DAY, { OUTBOUND_RETENTION_DAYS: "7" });
    await server.close();
    expect(rows(path, "SELECT id FROM webhook_messages")).toEqual([]);
    expect(rows(path, "SELECT count(*) FROM webhook_attempts")).toEqual([0]);
  });

  it.each(["-1", "1.5", "forever", "36501"])(
    "refuses OUTBOUND_RETENTION_DAYS=%j, naming it",
    (days) => {
      expect(() => loadConfig({ OUTBOUND_RETENTION_DAYS: days })).toThrow(
        /^OUTBOUND_RETENTION_DAYS is not valid/,
      );
    },
  );

  it("keeps 30 days by default", () => {
    expect(loadConfig({}).outboundRetentionDays).toBe(30);
  });
});
