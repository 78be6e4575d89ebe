import { describe, expect, it } from "vitest";
import type { RateLimitStore } from "../store.js";

const MINUTE = 60_000;
const W0 = Date.UTC(2026, 0, 2, 3, 4, 0);

/** The behaviour every `RateLimitStore` owes the limiter: exact counts per key and window. *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { RateLimitStore } from "@tessera/ratelimit";
 * import { describeRateLimitStoreContract } from "@tessera/ratelimit/testing";
 *
 * // Yours: a fresh, empty counter store, made for each test.
 * declare function openMyRateLimitStore(): Promise<RateLimitStore>;
 *
 * describeRateLimitStoreContract("MyRateLimitStore", openMyRateLimitStore);
 * ```
 */
export function describeRateLimitStoreContract(
  name: string,
  makeStore: () => Promise<RateLimitStore>,
) {
  describe(`RateLimitStore contract: ${name}`, () => {
    it("counts per key and per window", async () => {
      const store = await makeStore();
      expect(await store.increment("login:a", W0, MINUTE)).toBe(1);
      expect(await store.increment("login:a", W0, MINUTE)).toBe(2);
      expect(await store.increment("login:b", W0, MINUTE)).toBe(1);
      expect(await store.increment("login:a", W0 + MINUTE, MINUTE)).toBe(1);
    });

    it("gives twenty racing increments the counts 1 to 20, each once", async () => {
      const store = await makeStore();
      const counts = await Promise.all(
        Array.from({ length: 20 }, () => store.increment("signup:c", W0, MINUTE)),
      );
      expect([...counts].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    });
  });
}
