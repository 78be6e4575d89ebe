import { describe, expect, it } from "vitest";
import {
  deleteProcessedEvents,
  MemoryWebhookEventStore,
  scheduleEventRetention,
  type WebhookEventPruner,
} from "../src/index.js";

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

/** Records an event in `status`, last updated at `at`. */
async function record(
  store: MemoryWebhookEventStore,
  eventId: string,
  status: "processing" | "processed" | "failed",
  at: number,
) {
  const claim = await store.claim({
    source: "orders",
    eventId,
    payload: "{}",
    now: at,
    staleBefore: at,
  });
  if (!claim.claimed) throw new Error("already recorded");
  const reference = { source: "orders", eventId, attempts: claim.attempts, now: at };
  if (status === "processed") await store.markProcessed(reference);
  if (status === "failed") await store.markFailed({ ...reference, error: "boom" });
}

describe("deleteProcessedEvents", () => {
  it("deletes processed events older than the cutoff in batches, never processing or failed ones", async () => {
    const store = new MemoryWebhookEventStore();
    for (let i = 0; i < 5; i++) await record(store, `old_${i}`, "processed", T0 - 40 * DAY);
    await record(store, "recent", "processed", T0 - DAY);
    await record(store, "stuck", "processing", T0 - 40 * DAY);
    await record(store, "broken", "failed", T0 - 40 * DAY);
    const batches: number[] = [];
    const counting: WebhookEventPruner = {
      async deleteProcessedBefore(before, limit) {
        const deleted = await store.deleteProcessedBefore(before, limit);
        batches.push(deleted);
        return deleted;
      },
    };

    expect(await deleteProcessedEvents(counting, { before: T0 - 30 * DAY, batchSize: 2 })).toBe(5);
    expect(batches).toEqual([2, 2, 1]);
    expect(store.get("orders", "old_0")).toBeUndefined();
    expect(store.get("orders", "recent")).toMatchObject({ status: "processed" });
    expect(store.get("orders", "stuck")).toMatchObject({ status: "processing" });
    expect(store.get("orders", "broken")).toMatchObject({ status: "failed" });
  });

  it("stops between batches once its signal is aborted", async () => {
    const store = new MemoryWebhookEventStore();
    for (let i = 0; i < 5; i++) await record(store, `old_${i}`, "processed", T0 - 40 * DAY);
    const stop = new AbortController();
    const aborting: WebhookEventPruner = {
      async deleteProcessedBefore(before, limit) {
        stop.abort();
        return store.deleteProcessedBefore(before, limit);
      },
    };
    expect(
      await deleteProcessedEvents(aborting, { before: T0, batchSize: 2, signal: stop.signal }),
    ).toBe(2);
  });

  it("refuses a batch size that is not a positive integer", async () => {
    const store = new MemoryWebhookEventStore();
    await expect(deleteProcessedEvents(store, { before: T0, batchSize: 0 })).rejects.toThrow(
      RangeError,
    );
  });
});

describe("scheduleEventRetention", () => {
  it("runs at once and then every interval, until stopped", async () => {
    const store = new MemoryWebhookEventStore();
    const time = { now: T0 };
    await record(store, "first", "processed", T0 - 8 * DAY);
    await record(store, "kept", "processed", T0 - 6 * DAY);
    const counts: number[] = [];
    const stop = scheduleEventRetention(store, {
      keepMs: 7 * DAY,
      intervalMs: 40,
      clock: () => time.now,
      onDeleted: (count) => counts.push(count),
    });
    try {
      // The first run does not wait for the interval.
      expect(store.get("orders", "first")).toBeUndefined();
      expect(store.get("orders", "kept")).toMatchObject({ status: "processed" });

      time.now = T0 + 2 * DAY;
      await expect.poll(() => store.get("orders", "kept"), { interval: 10 }).toBeUndefined();
      expect(counts.slice(0, 2)).toEqual([1, 1]);
    } finally {
      stop();
    }
    await record(store, "after", "processed", T0 - 40 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(store.get("orders", "after")).toMatchObject({ status: "processed" });
  });

  it("reports a failing run and goes on", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const failing: WebhookEventPruner = {
      async deleteProcessedBefore() {
        calls++;
        throw new Error("database is locked");
      },
    };
    const stop = scheduleEventRetention(failing, {
      keepMs: DAY,
      intervalMs: 20,
      onError: (error) => errors.push(error),
    });
    try {
      await expect.poll(() => calls, { interval: 10 }).toBeGreaterThanOrEqual(2);
      expect(errors[0]).toEqual(new Error("database is locked"));
    } finally {
      stop();
    }
  });

  it("refuses a retention period or interval that is not positive", () => {
    const store = new MemoryWebhookEventStore();
    expect(() => scheduleEventRetention(store, { keepMs: 0 })).toThrow(RangeError);
    expect(() => scheduleEventRetention(store, { keepMs: DAY, intervalMs: 0 })).toThrow(RangeError);
  });
});
