import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTimestamp } from "@tessera/core";
import { signBody } from "@tessera/signer";
import type { SqlDatabase } from "@tessera/sql";
import { applyMigrations } from "@tessera/sql";
import { type BetterSqliteDatabase, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import {
  createWebhookProcessor,
  deleteProcessedEvents,
  signatureHeaderVerifier,
  type WebhookProcessor,
  type WebhookProcessorOptions,
} from "@tessera/webhooks";
import {
  SqlWebhookEventStore,
  webhookEventsMigration,
  webhookEventsRetentionMigration,
} from "@tessera/webhooks/sql";
import { afterEach, describe, expect, it } from "vitest";

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const MINUTE = 60_000;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated SQLite file in a fresh temporary folder; `open` adds another connection to it. */
async function temporaryDatabase(): Promise<{
  open: () => BetterSqliteDatabase;
  database: BetterSqliteDatabase;
}> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-webhooks-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const open = () => {
    const connection = openSqliteFile(join(folder, "events.db"));
    cleanups.push(() => connection.close());
    return connection;
  };
  const database = open();
  await applyMigrations(database, [webhookEventsMigration, webhookEventsRetentionMigration]);
  return { open, database };
}

const claimAt = (now: number) => ({
  source: "orders",
  eventId: "evt_1",
  payload: '{"id":"evt_1"}',
  now,
  staleBefore: now - 5 * MINUTE,
});

describe("SQLite webhook event store", () => {
  it("creates webhook_events with a unique (source, event_id)", async () => {
    const { database } = await temporaryDatabase();
    const columns = await database.all<{ name: string }>(
      "SELECT name FROM pragma_table_info('webhook_events')",
    );
    expect(columns.map((column) => column.name)).toEqual([
      "id",
      "source",
      "event_id",
      "payload",
      "status",
      "attempts",
      "error",
      "created_at",
      "updated_at",
    ]);
    const insert =
      "INSERT INTO webhook_events (source, event_id, payload, status, created_at, updated_at) VALUES ('a', 'b', '{}', 'processing', '', '')";
    await database.run(insert);
    await expect(database.run(insert)).rejects.toThrow(/UNIQUE/);
    await expect(
      database.run(insert.replace("'processing'", "'pending'").replace("'b'", "'c'")),
    ).rejects.toThrow(/CHECK/);
  });

  it("claims a new event once, with its raw payload and timestamps", async () => {
    const store = new SqlWebhookEventStore((await temporaryDatabase()).database);
    expect(await store.claim(claimAt(T0))).toEqual({ claimed: true, attempts: 1 });
    expect(await store.claim(claimAt(T0 + MINUTE))).toEqual({
      claimed: false,
      status: "processing",
      updatedAt: T0,
    });
    expect(await store.find("orders", "evt_1")).toEqual({
      source: "orders",
      eventId: "evt_1",
      payload: '{"id":"evt_1"}',
      status: "processing",
      attempts: 1,
      error: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await store.claim({ ...claimAt(T0), source: "billing" })).toEqual({
      claimed: true,
      attempts: 1,
    });
  });

  it("takes over an event processing for more than 5 minutes, not one processing for exactly 5", async () => {
    const store = new SqlWebhookEventStore((await temporaryDatabase()).database);
    await store.claim(claimAt(T0));
    expect(await store.claim(claimAt(T0 + 5 * MINUTE))).toEqual({
      claimed: false,
      status: "processing",
      updatedAt: T0,
    });
    expect(await store.claim(claimAt(T0 + 5 * MINUTE + 1000))).toEqual({
      claimed: true,
      attempts: 2,
    });
    expect(await store.find("orders", "evt_1")).toMatchObject({
      status: "processing",
      attempts: 2,
      createdAt: T0,
      updatedAt: T0 + 5 * MINUTE + 1000,
    });
  });

  it("claims a failed event again at once, and never a processed one", async () => {
    const store = new SqlWebhookEventStore((await temporaryDatabase()).database);
    await store.claim(claimAt(T0));
    await store.markFailed({
      source: "orders",
      eventId: "evt_1",
      attempts: 1,
      now: T0,
      error: "boom",
    });
    expect(await store.find("orders", "evt_1")).toMatchObject({ status: "failed", error: "boom" });
    expect(await store.claim(claimAt(T0 + 1000))).toEqual({ claimed: true, attempts: 2 });
    await store.markProcessed({ source: "orders", eventId: "evt_1", attempts: 2, now: T0 + 2000 });
    expect(await store.claim(claimAt(T0 + 60 * MINUTE))).toEqual({
      claimed: false,
      status: "processed",
    });
    expect(await store.find("orders", "evt_1")).toMatchObject({
      status: "processed",
      attempts: 2,
      error: "boom",
      updatedAt: T0 + 2000,
    });
  });

  it("ignores marks from a claim that was taken over", async () => {
    const store = new SqlWebhookEventStore((await temporaryDatabase()).database);
    await store.claim(claimAt(T0));
    await store.claim(claimAt(T0 + 6 * MINUTE));
    await store.markFailed({
      source: "orders",
      eventId: "evt_1",
      attempts: 1,
      now: T0 + 7 * MINUTE,
      error: "late",
    });
    await store.markProcessed({
      source: "orders",
      eventId: "evt_1",
      attempts: 1,
      now: T0 + 7 * MINUTE,
    });
    expect(await store.find("orders", "evt_1")).toMatchObject({
      status: "processing",
      attempts: 2,
      error: null,
      updatedAt: T0 + 6 * MINUTE,
    });
  });

  it("answers a lost claim whose event failed or vanished before its status was read as retry-at-once", async () => {
    const { database } = await temporaryDatabase();
    await new SqlWebhookEventStore(database).claim(claimAt(T0));
    for (const change of [
      "UPDATE webhook_events SET status = 'failed'",
      "DELETE FROM webhook_events",
    ]) {
      // Another delivery changes the event between the claim statement and the status read.
      const racing: SqlDatabase = {
        ...database,
        run: (sql, params) => database.run(sql, params),
        all: (sql, params) => database.all(sql, params),
        execScript: (sql) => database.execScript(sql),
        async get(sql, params) {
          if (sql.startsWith("SELECT status, updated_at")) await database.run(change);
          return database.get(sql, params);
        },
      };
      expect(await new SqlWebhookEventStore(racing).claim(claimAt(T0 + MINUTE))).toEqual({
        claimed: false,
        status: "processing",
        updatedAt: T0 + MINUTE - 5 * MINUTE,
      });
      await database.run("DELETE FROM webhook_events");
      await new SqlWebhookEventStore(database).claim(claimAt(T0));
    }
  });

  it("lets exactly one of many claims racing on several connections win", async () => {
    const { open, database } = await temporaryDatabase();
    const stores = [database, open(), open()].map(
      (connection) => new SqlWebhookEventStore(connection),
    );
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) => stores[index % stores.length]!.claim(claimAt(T0))),
    );
    expect(results.filter((result) => result.claimed)).toEqual([{ claimed: true, attempts: 1 }]);
  });
});

describe("SQLite webhook event retention", () => {
  const DAY = 24 * 60 * MINUTE;

  /** Inserts `count` events with one status and one last-update time, in one transaction. */
  function seed(
    database: BetterSqliteDatabase,
    prefix: string,
    count: number,
    status: string,
    at: number,
  ) {
    const insert = database.connection.prepare(
      "INSERT INTO webhook_events (source, event_id, payload, status, created_at, updated_at) VALUES ('orders', ?, '{}', ?, ?, ?)",
    );
    const time = formatTimestamp(at);
    database.connection.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(`${prefix}_${i}`, status, time, time);
    })();
  }

  /** The database, recording every write statement and the rows it changed. */
  function recording(database: SqlDatabase) {
    const writes: { sql: string; params: readonly unknown[]; changes: number }[] = [];
    const recorder: SqlDatabase = {
      ...database,
      get: (sql, params) => database.get(sql, params),
      all: (sql, params) => database.all(sql, params),
      execScript: (sql) => database.execScript(sql),
      async run(sql, params = []) {
        const result = await database.run(sql, params);
        writes.push({ sql, params, changes: result.changes });
        return result;
      },
    };
    return { recorder, writes };
  }

  const remaining = (database: BetterSqliteDatabase) =>
    database.all<{ status: string; events: number }>(
      "SELECT status, count(*) AS events FROM webhook_events GROUP BY status ORDER BY status",
    );

  it("deletes processed events older than the cutoff, at most 1,000 rows per statement, and nothing else", async () => {
    const { database } = await temporaryDatabase();
    seed(database, "old", 2500, "processed", T0 - 40 * DAY);
    seed(database, "recent", 3, "processed", T0 - 2 * DAY);
    seed(database, "stuck", 2, "processing", T0 - 40 * DAY);
    seed(database, "broken", 2, "failed", T0 - 40 * DAY);
    const { recorder, writes } = recording(database);

    const deleted = await deleteProcessedEvents(new SqlWebhookEventStore(recorder), {
      before: T0 - 30 * DAY,
    });

    expect(deleted).toBe(2500);
    expect(writes.map((write) => write.changes)).toEqual([1000, 1000, 500]);
    expect(await remaining(database)).toEqual([
      { status: "failed", events: 2 },
      { status: "processed", events: 3 },
      { status: "processing", events: 2 },
    ]);
    // The statement finds its rows through the retention index, not by reading the table.
    const plan = await database.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN ${writes[0]!.sql}`,
      writes[0]!.params as never,
    );
    expect(plan.map((step) => step.detail).join("\n")).toContain(
      "INDEX webhook_events_processed_updated_at (updated_at<?)",
    );
  });

  it("lets other work run between its batches", async () => {
    const { database } = await temporaryDatabase();
    seed(database, "old", 3000, "processed", T0 - 40 * DAY);
    const { recorder, writes } = recording(database);
    const purge = deleteProcessedEvents(new SqlWebhookEventStore(recorder), {
      before: T0 - 30 * DAY,
    });
    // A timer due now stands for the requests waiting behind the purge.
    const batchesBeforeTimer = await new Promise<number>((resolve) =>
      setTimeout(() => resolve(writes.length), 0),
    );
    expect(await purge).toBe(3000);
    expect(writes).toHaveLength(4);
    expect(batchesBeforeTimer).toBeLessThan(3);
  });

  it("shares the work safely when several connections purge at once", async () => {
    const { open, database } = await temporaryDatabase();
    seed(database, "old", 4500, "processed", T0 - 40 * DAY);
    seed(database, "recent", 5, "processed", T0);
    const stores = [database, open(), open()].map(
      (connection) => new SqlWebhookEventStore(connection),
    );
    const counts = await Promise.all(
      stores.map((store) => deleteProcessedEvents(store, { before: T0 - 30 * DAY })),
    );
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(4500);
    expect(await remaining(database)).toEqual([{ status: "processed", events: 5 }]);
  });
});

describe("webhook processor on SQLite over real HTTP", () => {
  const secret = "orders webhook secret";
  const body = JSON.stringify({
    id: "evt_77",
    type: "order.paid",
    data: { order_id: 7, amount: 1250 },
  });

  /** Serves the processors on 127.0.0.1, handing request i to processor i mod n. */
  async function serve(processors: readonly WebhookProcessor[]): Promise<string> {
    let next = 0;
    const server: Server = createServer(async (incoming, outgoing) => {
      const processor = processors[next++ % processors.length]!;
      const response = await processor.handle(await toRequest(incoming));
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/orders`;
  }

  /** One signed delivery; `retryAfter` is the header, when the answer carries one. */
  async function deliver(
    url: string,
    payload = body,
  ): Promise<{ status: number; body: unknown; retryAfter?: string }> {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Signature": signBody(payload, secret) },
      body: payload,
    });
    const retryAfter = response.headers.get("retry-after");
    return {
      status: response.status,
      body: await response.json(),
      ...(retryAfter === null ? {} : { retryAfter }),
    };
  }

  function processorOn(database: BetterSqliteDatabase, options: Partial<WebhookProcessorOptions>) {
    return createWebhookProcessor({
      source: "orders",
      verify: signatureHeaderVerifier({ secret }),
      store: new SqlWebhookEventStore(database),
      effect: () => {},
      ...options,
    });
  }

  it("runs the effect exactly once for many simultaneous deliveries of one event", async () => {
    const { open, database } = await temporaryDatabase();
    const deliveries = 24;
    let effectRuns = 0;
    let busy = 0;
    let release!: () => void;
    const everyDeliveryDecided = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The effect holds its claim until every other delivery has been answered, so all of them
    // meet a live claim; a second run would be counted, not hang.
    const settle = () => {
      if (effectRuns + busy === deliveries) release();
    };
    const effect = async () => {
      effectRuns++;
      settle();
      await everyDeliveryDecided;
    };
    const url = await serve([processorOn(database, { effect }), processorOn(open(), { effect })]);

    const answers = await Promise.all(
      Array.from({ length: deliveries }, async () => {
        const answer = await deliver(url);
        if (answer.status === 409) {
          busy++;
          settle();
        }
        return answer;
      }),
    );

    expect(effectRuns).toBe(1);
    expect(answers.filter((answer) => answer.status === 200)).toEqual([
      { status: 200, body: { status: "processed" } },
    ]);
    // A live claim is never answered 2xx: the sender must come back.
    expect(answers.filter((answer) => answer.status === 409)).toEqual(
      Array.from({ length: deliveries - 1 }, () => ({
        status: 409,
        body: {
          error: {
            code: "event_in_progress",
            message: "This event is being processed; retry later.",
            status: 409,
          },
        },
        retryAfter: expect.stringMatching(/^(300|301|302)$/),
      })),
    );
    // The senders' retries, once the claim is done, are duplicates.
    const retries = await Promise.all(Array.from({ length: busy }, () => deliver(url)));
    expect(new Set(retries.map((retry) => JSON.stringify(retry)))).toEqual(
      new Set([JSON.stringify({ status: 200, body: { status: "duplicate" } })]),
    );
    expect(effectRuns).toBe(1);
    expect(await database.get("SELECT status, attempts, payload FROM webhook_events")).toEqual({
      status: "processed",
      attempts: 1,
      payload: body,
    });
  });

  it("takes a claim over on the real clock once Retry-After has passed (stale after 1 s)", async () => {
    const { database } = await temporaryDatabase();
    const runs: number[] = [];
    let wake!: () => void;
    const hung = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const url = await serve([
      processorOn(database, {
        staleAfterMs: 1000,
        effect: async (event) => {
          runs.push(event.attempts);
          // Stands for an invocation that died: it only wakes at the end of the test.
          if (event.attempts === 1) await hung;
        },
      }),
    ]);
    const abandoned = deliver(url);
    await expect.poll(() => runs.length).toBe(1);

    const busy = await deliver(url);
    expect(busy).toMatchObject({ status: 409, retryAfter: expect.stringMatching(/^[123]$/) });
    // Times are stored to the second, so the answer must cover the rounding: retrying after
    // exactly Retry-After seconds has to find the claim stale.
    await new Promise((resolve) => setTimeout(resolve, Number(busy.retryAfter) * 1000));
    expect(await deliver(url)).toEqual({ status: 200, body: { status: "processed" } });
    expect(runs).toEqual([1, 2]);

    wake();
    expect((await abandoned).status).toBe(200);
    expect(await database.get("SELECT status, attempts FROM webhook_events")).toEqual({
      status: "processed",
      attempts: 2,
    });
  });

  it("answers 409 to a live claim, retries failures, takes over stale claims, then answers duplicates", async () => {
    const { database } = await temporaryDatabase();
    const time = { now: T0 };
    const outcomes: string[] = [];
    let behaviour: "fail" | "hang" | "succeed" = "fail";
    let wake!: () => void;
    const hung = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const url = await serve([
      processorOn(database, {
        clock: () => time.now,
        effect: async () => {
          outcomes.push(behaviour);
          if (behaviour === "fail") throw new Error("data.amount is not a number");
          // Stands for an invocation that died: it only wakes at the end of the test.
          if (behaviour === "hang") await hung;
        },
      }),
    ]);
    const row = () =>
      database.get("SELECT status, attempts, error FROM webhook_events WHERE event_id = 'evt_77'");

    expect(await deliver(url)).toEqual({
      status: 500,
      body: {
        error: { code: "effect_failed", message: "Webhook processing failed", status: 500 },
      },
    });
    expect(await row()).toEqual({
      status: "failed",
      attempts: 1,
      error: "data.amount is not a number",
    });

    behaviour = "hang";
    time.now = T0 + 10_000;
    const abandoned = deliver(url);
    await expect.poll(() => outcomes.length).toBe(2);
    expect(await row()).toEqual({
      status: "processing",
      attempts: 2,
      error: "data.amount is not a number",
    });

    behaviour = "succeed";
    time.now = T0 + 10_000 + 4 * MINUTE;
    expect(await deliver(url)).toEqual({
      status: 409,
      body: {
        error: {
          code: "event_in_progress",
          message: "This event is being processed; retry later.",
          status: 409,
        },
      },
      retryAfter: "61",
    });
    time.now = T0 + 10_000 + 5 * MINUTE + 1000;
    expect(await deliver(url)).toEqual({ status: 200, body: { status: "processed" } });
    expect(await deliver(url)).toEqual({ status: 200, body: { status: "duplicate" } });

    expect(outcomes).toEqual(["fail", "hang", "succeed"]);
    const final = { status: "processed", attempts: 3, error: "data.amount is not a number" };
    expect(await row()).toEqual(final);

    // The abandoned invocation finishing late leaves its successor's record alone.
    wake();
    expect(await abandoned).toEqual({ status: 200, body: { status: "processed" } });
    expect(await row()).toEqual(final);
  });
});

async function toRequest(incoming: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      headers.append(name, item);
    }
  }
  return new Request(`http://127.0.0.1${incoming.url}`, {
    method: incoming.method ?? "POST",
    headers,
    body: Buffer.concat(chunks),
  });
}
