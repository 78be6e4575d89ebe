import { describe, expect, it } from "vitest";
import type { WebhookEventStore } from "../event-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const STALE_MS = 300_000;

/**
 * The behaviour every `WebhookEventStore` owes the processor: one claim wins, a live claim is
 * left alone, a failed or abandoned one is taken over, and a superseded claim cannot mark.
 *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { WebhookEventStore } from "@tessera/webhooks";
 * import { describeWebhookEventStoreContract } from "@tessera/webhooks/testing";
 *
 * // Yours: a fresh, empty event store, made for each test.
 * declare function openMyEventStore(): Promise<WebhookEventStore>;
 *
 * describeWebhookEventStoreContract("MyEventStore", openMyEventStore);
 * ```
 */
export function describeWebhookEventStoreContract(
  name: string,
  makeStore: () => Promise<WebhookEventStore>,
) {
  const claimAt = (store: WebhookEventStore, now: number, eventId = "evt_1", source = "orders") =>
    store.claim({ source, eventId, payload: "{}", now, staleBefore: now - STALE_MS });

  describe(`WebhookEventStore contract: ${name}`, () => {
    it("claims a new event, then answers a live claim and a processed event", async () => {
      const store = await makeStore();
      expect(await claimAt(store, T0)).toEqual({ claimed: true, attempts: 1 });
      expect(await claimAt(store, T0 + 1000)).toEqual({
        claimed: false,
        status: "processing",
        updatedAt: T0,
      });
      await store.markProcessed({
        source: "orders",
        eventId: "evt_1",
        attempts: 1,
        now: T0 + 2000,
      });
      expect(await claimAt(store, T0 + 3000)).toEqual({ claimed: false, status: "processed" });
    });

    it("takes a failed event over with the next attempt", async () => {
      const store = await makeStore();
      await claimAt(store, T0);
      await store.markFailed({
        source: "orders",
        eventId: "evt_1",
        attempts: 1,
        now: T0,
        error: "x",
      });
      expect(await claimAt(store, T0 + 1000)).toEqual({ claimed: true, attempts: 2 });
    });

    it("takes an abandoned claim over, and the superseded claim's mark changes nothing", async () => {
      const store = await makeStore();
      await claimAt(store, T0);
      const takeover = T0 + STALE_MS + 1000;
      expect(await claimAt(store, takeover)).toEqual({ claimed: true, attempts: 2 });
      await store.markFailed({
        source: "orders",
        eventId: "evt_1",
        attempts: 1,
        now: takeover,
        error: "late",
      });
      expect(await claimAt(store, takeover + 1000)).toEqual({
        claimed: false,
        status: "processing",
        updatedAt: takeover,
      });
      await store.markProcessed({
        source: "orders",
        eventId: "evt_1",
        attempts: 2,
        now: takeover + 2000,
      });
      expect(await claimAt(store, takeover + 3000)).toEqual({
        claimed: false,
        status: "processed",
      });
    });

    it("lets exactly one of thirty racing deliveries claim", async () => {
      const store = await makeStore();
      const racing = await Promise.all(Array.from({ length: 30 }, () => claimAt(store, T0)));
      expect(racing.filter((result) => result.claimed)).toHaveLength(1);
    });

    it("keeps sources apart: one event id in two sources is two events", async () => {
      const store = await makeStore();
      expect(await claimAt(store, T0, "42", "orders")).toMatchObject({ claimed: true });
      expect(await claimAt(store, T0, "42", "billing")).toMatchObject({ claimed: true });
    });
  });
}
