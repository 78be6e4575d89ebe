import { describe, expect, it } from "vitest";
import {
  deleteProcessedEvents,
  MemoryWebhookEventStore,
  type WebhookEventPruner,
  webhookCleanups,
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

describe("webhookCleanups", () => {
  it("is one task that deletes the processed events older than the retention at its run's time", async () => {
    const store = new MemoryWebhookEventStore();
    for (let i = 0; i < 3; i++) await record(store, `old_${i}`, "processed", T0 - 31 * DAY);
    await record(store, "recent", "processed", T0 - 29 * DAY);
    await record(store, "stuck", "processing", T0 - 40 * DAY);
    const tasks = webhookCleanups(store, { retentionMs: 30 * DAY });
    expect(tasks.map((task) => task.name)).toEqual(["old-webhook-events"]);
    expect(await tasks[0]!.run(T0)).toEqual({ removed: 3 });
    expect(await tasks[0]!.run(T0)).toEqual({ removed: 0 });
    expect(store.get("orders", "recent")?.status).toBe("processed");
    expect(store.get("orders", "stuck")?.status).toBe("processing");
    expect(await tasks[0]!.run(T0 + 2 * DAY)).toEqual({ removed: 1 });
  });

  it("refuses a retention that keeps nothing", () => {
    const store = new MemoryWebhookEventStore();
    for (const retentionMs of [0, -DAY, Number.NaN]) {
      expect(() => webhookCleanups(store, { retentionMs })).toThrow(RangeError);
    }
  });
});
