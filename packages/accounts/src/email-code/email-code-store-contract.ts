import { describe, expect, it } from "vitest";
import type { EmailCodeStore } from "./email-code-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const TEN_MINUTES = 10 * 60_000;

/** A fresh emailed-code store, and a way to make the users its codes belong to. */
export interface EmailCodeStoreUnderTest {
  readonly store: EmailCodeStore;
  /** Creates a user and returns its id. */
  readonly newUser: () => Promise<number>;
}

/**
 * The behaviour every `EmailCodeStore` owes its callers, above all that a code is consumed once
 * however many requests race for it, and that failures count on the code they were typed for.
 *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { EmailCodeStore } from "@tessera/accounts";
 * import { describeEmailCodeStoreContract } from "@tessera/accounts/testing";
 *
 * // Yours: a fresh, empty database, the store over it, and a way to add a user.
 * declare function openMyDatabase(): Promise<{ store: EmailCodeStore; newUser: () => Promise<number> }>;
 *
 * describeEmailCodeStoreContract("MyEmailCodeStore", openMyDatabase);
 * ```
 */
export function describeEmailCodeStoreContract(
  name: string,
  makeStore: () => Promise<EmailCodeStoreUnderTest>,
) {
  describe(`EmailCodeStore contract: ${name}`, () => {
    it("keeps one code per user: a new one replaces the last and its failures", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      expect(await store.find(ada)).toBeUndefined();
      await store.issue(ada, "digest-1", T0 + TEN_MINUTES, T0);
      await store.issue(bob, "digest-b", T0 + TEN_MINUTES, T0);
      expect((await store.countAttempt(ada, 5, T0))?.failures).toBe(1);
      await store.issue(ada, "digest-2", T0 + 2 * TEN_MINUTES, T0 + 1000);
      expect(await store.find(ada)).toEqual({
        digest: "digest-2",
        failures: 0,
        expiresAt: T0 + 2 * TEN_MINUTES,
      });
      expect(await store.find(bob)).toMatchObject({ digest: "digest-b", failures: 0 });
    });

    it("counts tries on the user's live code, up to the cap and before expiry only", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      await store.issue(ada, "digest-1", T0 + TEN_MINUTES, T0);
      expect(await store.countAttempt(ada, 3, T0)).toEqual({
        digest: "digest-1",
        failures: 1,
        expiresAt: T0 + TEN_MINUTES,
      });
      expect((await store.countAttempt(ada, 3, T0))?.failures).toBe(2);
      expect(await store.countAttempt(bob, 3, T0)).toBeUndefined();
      expect(await store.countAttempt(ada, 3, T0 + TEN_MINUTES)).toBeUndefined();
      expect((await store.countAttempt(ada, 3, T0))?.failures).toBe(3);
      expect(await store.countAttempt(ada, 3, T0)).toBeUndefined();
      expect((await store.find(ada))?.failures).toBe(3);
    });

    it("counts no more than the cap of a burst of racing tries", async () => {
      const { store, newUser } = await makeStore();
      const ada = await newUser();
      await store.issue(ada, "digest-1", T0 + TEN_MINUTES, T0);
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => store.countAttempt(ada, 5, T0)),
      );
      const counted = burst.filter((code) => code !== undefined);
      expect(counted.map((code) => code.failures).sort()).toEqual([1, 2, 3, 4, 5]);
      expect((await store.find(ada))?.failures).toBe(5);
    });

    it("consumes a code once, for its own user and digest only", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      await store.issue(ada, "digest-1", T0 + TEN_MINUTES, T0);
      expect(await store.consume(bob, "digest-1")).toBe(false);
      expect(await store.consume(ada, "digest-other")).toBe(false);
      const racing = await Promise.all(
        Array.from({ length: 5 }, () => store.consume(ada, "digest-1")),
      );
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await store.find(ada)).toBeUndefined();
      expect(await store.countAttempt(ada, 5, T0)).toBeUndefined();
    });
  });
}
