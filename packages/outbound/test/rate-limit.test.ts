import {
  MemoryOutboundStore,
  OutboundWebhooks,
  RATE_LIMIT_INVALID,
  WEBHOOK_QUEUE,
  webhookSender,
} from "@tessera/outbound";
import { MemoryOutbox } from "@tessera/outbox";
import type { SqlDatabase } from "@tessera/sql";
import { describe, expect, it } from "vitest";
import { postgresSchema, sqliteFile } from "./support/databases.js";
import { testReceiver } from "./support/receiver.js";
import { allowLocal, secretKeys, webhooksOn } from "./support/senders.js";

const receiver = await testReceiver();
let paths = 0;

/** A path of its own on the shared receiver, noting when each request arrived. */
function timedPath(statuses: number[] = [204]) {
  const path = `/rate-${++paths}`;
  const arrivals: number[] = [];
  receiver.on(path, (_request, response) => {
    arrivals.push(performance.now());
    response.writeHead(statuses[Math.min(arrivals.length - 1, statuses.length - 1)]!).end();
  });
  return { url: receiver.url(path), arrivals, received: () => receiver.receivedAt(path) };
}

/** The real time, for the senders and the outbox: the spacing is measured on it. */
const realTime = {
  get now() {
    return Date.now();
  },
};

async function until(done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const RATE = 5;
const BURST = 12;
const INTERVAL = 1000 / RATE;

/**
 * Times of deliveries to an endpoint limited to {@link RATE} a second, taken in this process
 * (where other test files may hold the event loop up for a while): spread over the whole
 * burst's share of seconds, spaced by the interval as a rule, and never more than RATE + 1
 * within a second (one more for that jitter; RATE + 2 would need 1.2 s at the limit).
 */
function expectSpaced(times: readonly number[]) {
  expect(times).toHaveLength(BURST);
  expect(times.at(-1)! - times[0]!).toBeGreaterThan((BURST - 1) * INTERVAL - 150);
  const gaps = times
    .slice(1)
    .map((time, index) => time - times[index]!)
    .sort((a, b) => a - b);
  expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThan(INTERVAL * 0.9);
  for (let index = 0; index + RATE + 1 < times.length; index++) {
    expect(times[index + RATE + 1]! - times[index]!).toBeGreaterThanOrEqual(1000);
  }
}

/**
 * A burst of {@link BURST} events to an endpoint limited to {@link RATE} a second, drained by
 * two started senders on connections of their own (as two processes would): every event
 * arrives once, never two closer than the interval (see {@link expectSpaced}), each in one
 * succeeded first attempt.
 */
async function burstThroughTwoSenders(main: SqlDatabase, open: () => SqlDatabase) {
  const target = timedPath();
  const writer = webhooksOn(main, realTime);
  const created = await writer.webhooks.createEndpoint(1, { url: target.url, rateLimit: RATE });
  if (!created.ok) throw new Error(JSON.stringify(created));
  const { endpoint } = created.value;
  expect(endpoint.rateLimit).toBe(RATE);
  const sent = new Set<string>();
  for (let index = 0; index < BURST; index++) {
    sent.add((await writer.webhooks.send(main, 1, "note.created", { index })).messageId!);
  }
  const senders = [open(), open()].map((connection) =>
    // More slots than the second's reach holds: some deliveries wait in their slot, the rest
    // go back to the outbox.
    webhooksOn(connection, realTime).sender({ pollMs: 20, concurrency: 8, keyConcurrency: 8 }),
  );
  for (const sender of senders) sender.start();
  try {
    await until(() => target.arrivals.length >= BURST, 15_000);
    // Longer than the interval: a delivery sent twice would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 2 * INTERVAL));
  } finally {
    await Promise.all(senders.map((sender) => sender.stop()));
  }
  const ids = target.received().map((request) => request.headers["webhook-id"]);
  expect(ids).toHaveLength(BURST);
  expect(new Set(ids)).toEqual(sent);
  expectSpaced(target.arrivals);
  const attempts = (await writer.webhooks.listAttempts(1, endpoint.id, 100)) ?? [];
  expect(attempts).toHaveLength(BURST);
  expect(attempts.every((each) => each.attempt === 1 && each.status === "succeeded")).toBe(true);
  const items = await writer.outbox.list(WEBHOOK_QUEUE, { limit: 1000 });
  expect(items.every((item) => item.status === "done")).toBe(true);
  // Some deliveries waited in the outbox for their turn, as items of their own.
  expect(items.some((item) => /\.later-\d+$/.test(item.key))).toBe(true);
}

describe("an endpoint's rate limit", () => {
  it("is a whole number of deliveries a second from 1 to 10,000, shown, changed and cleared", async () => {
    const { database } = await sqliteFile();
    const { webhooks } = webhooksOn(database);
    const url = "http://127.0.0.1/in";
    for (const rateLimit of [0, -1, 10_001, 1.5, "10", Number.NaN, true, {}]) {
      expect(await webhooks.createEndpoint(1, { url, rateLimit })).toEqual({
        ok: false,
        fields: { rateLimit: [RATE_LIMIT_INVALID] },
      });
    }
    const none = await webhooks.createEndpoint(1, { url });
    expect(none.ok && none.value.endpoint.rateLimit).toBeNull();
    const created = await webhooks.createEndpoint(1, { url, rateLimit: 10_000 });
    if (!created.ok) throw new Error(JSON.stringify(created));
    const { id } = created.value.endpoint;
    expect(created.value.endpoint.rateLimit).toBe(10_000);
    expect(await webhooks.updateEndpoint(1, id, { rateLimit: 0 })).toEqual({
      ok: false,
      fields: { rateLimit: [RATE_LIMIT_INVALID] },
    });
    expect(await webhooks.updateEndpoint(1, id, { rateLimit: 1 })).toMatchObject({
      ok: true,
      value: { rateLimit: 1 },
    });
    expect(await webhooks.updateEndpoint(1, id, { description: "d" })).toMatchObject({
      value: { rateLimit: 1 },
    });
    expect(await webhooks.updateEndpoint(1, id, { rateLimit: null })).toMatchObject({
      value: { rateLimit: null },
    });
    expect((await webhooks.findEndpoint(1, id))?.rateLimit).toBeNull();
  });

  it("spaces a burst through two senders sharing one SQLite file, losing none", async () => {
    const { database, open } = await sqliteFile();
    await burstThroughTwoSenders(database, open);
  });

  it("spaces a burst through two senders sharing one PostgreSQL database, losing none", async () => {
    const { database, open } = await postgresSchema();
    await burstThroughTwoSenders(database, open);
  });

  it("spaces a burst in memory too, the waiting deliveries going back to the memory outbox", async () => {
    const outbox = new MemoryOutbox();
    const store = new MemoryOutboundStore({ outbox });
    const webhooks = new OutboundWebhooks({
      store,
      outbox,
      writer: outbox,
      secretKeys,
      policy: allowLocal,
    });
    const created = await webhooks.createEndpoint(1, {
      url: "http://127.0.0.1/in",
      rateLimit: RATE,
    });
    if (!created.ok) throw new Error(JSON.stringify(created));
    for (let index = 0; index < BURST; index++) await webhooks.send(outbox, 1, "a.b", { index });
    const sentAt: number[] = [];
    const sender = webhookSender({
      store,
      outbox,
      writer: outbox,
      secretKeys,
      pollMs: 20,
      concurrency: 8,
      keyConcurrency: 8,
      fetch: async () => {
        sentAt.push(performance.now());
        return { kind: "answered", status: 204, answer: "", durationMs: 1 };
      },
    });
    sender.start();
    try {
      await until(() => sentAt.length >= BURST, 15_000);
    } finally {
      await sender.stop();
    }
    expectSpaced(sentAt);
    const attempts = (await webhooks.listAttempts(1, created.value.endpoint.id)) ?? [];
    expect(attempts.map((attempt) => attempt.attempt)).toEqual(Array(BURST).fill(1));
    const items = await outbox.list(WEBHOOK_QUEUE, { limit: 100 });
    expect(items.some((item) => item.key.endsWith(".later-1"))).toBe(true);
    expect(items.every((item) => item.status === "done")).toBe(true);
  });

  it("puts a delivery back without an attempt, and numbers its attempts and retries on after it", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, store, outbox, time } = webhooksOn(database);
    const target = timedPath([500, 200]);
    const created = await webhooks.createEndpoint(1, { url: target.url, rateLimit: 10 });
    if (!created.ok) throw new Error(JSON.stringify(created));
    const { endpoint } = created.value;
    await webhooks.send(database, 1, "note.created", { n: 1 });
    const runner = sender({ schedule: { delaysMs: [1000, 1000] } });
    expect(await runner.drain()).toMatchObject({ retried: 1 }); // attempt 1: 500
    // Another sender takes every slot within reach of the retry's time.
    time.now += 1000;
    for (let index = 0; index < 11; index++) {
      expect(
        await store.takeDeliverySlot(endpoint.id, { perSecond: 10, now: time.now, reachMs: 1000 }),
      ).toMatchObject({ taken: true });
    }
    expect(await runner.drain()).toMatchObject({ delivered: 1, retried: 0, failed: 0 });
    expect(target.received()).toHaveLength(1);
    expect(await webhooks.listAttempts(1, endpoint.id)).toHaveLength(1);
    const waiting = (await outbox.list(WEBHOOK_QUEUE, { limit: 10 })).filter(
      (item) => item.status === "pending",
    );
    expect(waiting).toEqual([
      expect.objectContaining({
        key: expect.stringMatching(/\.later-1$/),
        payload: expect.objectContaining({ attempts_before: 1 }),
        runAt: time.now + 100,
        fairnessKey: "owner-1",
      }),
    ]);
    time.now += 1100; // the slots taken have passed
    expect(await runner.drain()).toMatchObject({ delivered: 1 });
    const log = (await webhooks.listAttempts(1, endpoint.id)) ?? [];
    expect(log.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [2, "succeeded"],
      [1, "failed"],
    ]);
  });

  it("fails a delivery that waited once the retry schedule is spent, counting its earlier attempts", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, outbox, time } = webhooksOn(database);
    const target = timedPath([500]);
    const created = await webhooks.createEndpoint(1, { url: target.url, rateLimit: 10 });
    if (!created.ok) throw new Error(JSON.stringify(created));
    const { endpoint } = created.value;
    const { messageId } = await webhooks.send(database, 1, "user.created", {});
    // As the sender leaves a delivery that made two attempts, then waited for its turn.
    await database.run("DELETE FROM outbox_items");
    await outbox.enqueue(
      database,
      WEBHOOK_QUEUE,
      { message_id: messageId, endpoint_id: endpoint.id, attempts_before: 2 },
      { key: `${messageId}.${endpoint.id}.later-1`, fairnessKey: "owner-1" },
    );
    const runner = sender({ schedule: { delaysMs: [100, 5000, 1000] } });
    expect(await runner.drain()).toMatchObject({ retried: 1 });
    // Its third attempt waits the schedule's third step, not the first.
    const [item] = await outbox.list(WEBHOOK_QUEUE, { limit: 1 });
    expect(item?.runAt).toBe(time.now + 1000);
    time.now += 1000;
    expect(await runner.drain()).toMatchObject({ failed: 1 });
    const log = (await webhooks.listAttempts(1, endpoint.id)) ?? [];
    expect(log.map((attempt) => attempt.attempt)).toEqual([4, 3]);
  });
});
