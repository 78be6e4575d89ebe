import { describe, expect, it } from "vitest";
import type { FailureStreakStore } from "../failure-streak-store.js";
import { createFailureThrottle, type QuietStreakPruner } from "../failure-throttle.js";
import { storedRateLimitKey } from "../stored-key.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 0);

/**
 * The behaviour every `FailureStreakStore` owes the throttle: a compare-and-set that lets one
 * of several racing writers win, per key. Call it at the top of a vitest test file; each case
 * gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { FailureStreakStore, QuietStreakPruner } from "@tessera/ratelimit";
 * import { describeFailureStreakStoreContract } from "@tessera/ratelimit/testing";
 *
 * // Yours: a fresh, empty streak store with its cleanup, made for each test.
 * declare function openMyStreakStore(): Promise<FailureStreakStore & QuietStreakPruner>;
 *
 * describeFailureStreakStoreContract("MyStreakStore", openMyStreakStore);
 * ```
 */
export function describeFailureStreakStoreContract(
  name: string,
  makeStore: () => Promise<FailureStreakStore & QuietStreakPruner>,
) {
  describe(`FailureStreakStore contract: ${name}`, () => {
    it("writes a streak only over the one it read, per key", async () => {
      const store = await makeStore();
      const first = { failures: 1, firstAt: T0, lastAt: T0 };
      expect(await store.read("a")).toBeUndefined();
      expect(await store.replace("a", undefined, first)).toBe(true);
      expect(await store.replace("a", undefined, first)).toBe(false);
      const second = { failures: 2, firstAt: T0, lastAt: T0 + 1000 };
      expect(await store.replace("a", first, second)).toBe(true);
      expect(await store.replace("a", first, { ...second, failures: 9 })).toBe(false);
      expect(await store.read("a")).toEqual(second);
      expect(await store.read("b")).toBeUndefined();
      await store.clear("a");
      expect(await store.read("a")).toBeUndefined();
    });

    it("lets exactly one of twenty racing writers over the same streak win", async () => {
      const store = await makeStore();
      const start = { failures: 3, firstAt: T0, lastAt: T0 };
      await store.replace("c", undefined, start);
      const wins = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          store.replace("c", start, { failures: 4, firstAt: T0, lastAt: T0 + index }),
        ),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await store.read("c"))?.failures).toBe(4);
    });

    it("lets a throttle on it judge exactly ten of thirty racing attempts", async () => {
      const store = await makeStore();
      const throttle = createFailureThrottle({ store, clock: () => T0 });
      const decisions = await Promise.all(
        Array.from({ length: 30 }, () => throttle.attempt("password", "racer")),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
      expect(decisions.filter((decision) => decision.startsWaits)).toHaveLength(1);
      expect((await store.read(storedRateLimitKey("password", "racer")))?.failures).toBe(10);
    });

    it("deletes only the streaks whose last failure came before the given time", async () => {
      const store = await makeStore();
      await store.replace("old", undefined, { failures: 1, firstAt: T0, lastAt: T0 });
      await store.replace("new", undefined, { failures: 1, firstAt: T0, lastAt: T0 + 5000 });
      expect(await store.deleteQuietStreaks(T0 + 5000)).toBe(1);
      expect(await store.read("old")).toBeUndefined();
      expect(await store.read("new")).toBeDefined();
    });
  });
}
