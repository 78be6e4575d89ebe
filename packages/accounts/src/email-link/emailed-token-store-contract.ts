import { describe, expect, it } from "vitest";
import type { UserStore } from "../users/user-store.js";
import type { EmailedTokenStore } from "./emailed-token-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const HOUR = 3_600_000;

/** A fresh token store, and a way to make the users its tokens belong to. */
export interface EmailedTokenStoreUnderTest {
  readonly store: EmailedTokenStore;
  readonly users: UserStore;
}

/**
 * The behaviour every `EmailedTokenStore` owes its callers, above all that a token is consumed
 * once however many requests race for it.
 *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { EmailedTokenStore, UserStore } from "@tessera/accounts";
 * import { describeEmailedTokenStoreContract } from "@tessera/accounts/testing";
 *
 * // Yours: a fresh, empty database, and the two stores over it.
 * declare function openMyDatabase(): Promise<{ tokens: EmailedTokenStore; users: UserStore }>;
 *
 * describeEmailedTokenStoreContract("MyEmailedTokenStore", async () => {
 *   const { tokens, users } = await openMyDatabase();
 *   return { store: tokens, users };
 * });
 * ```
 */
export function describeEmailedTokenStoreContract(
  name: string,
  makeStores: () => Promise<EmailedTokenStoreUnderTest>,
) {
  async function withUser() {
    const stores = await makeStores();
    const created = await stores.users.create(
      { email: `u${crypto.randomUUID()}@example.com`, passwordDigest: "d" },
      T0,
    );
    if (!created.ok) throw new Error("created");
    return { ...stores, userId: created.value.id };
  }

  describe(`EmailedTokenStore contract: ${name}`, () => {
    it("peeks without using a token up, then consumes it once", async () => {
      const { store, userId } = await withUser();
      await store.issue({
        userId,
        purpose: "magic_link",
        digest: "a1",
        expiresAt: T0 + HOUR,
        issuedAt: T0,
      });
      expect(await store.peek("a1", "magic_link")).toEqual({ userId, expiresAt: T0 + HOUR });
      expect(await store.peek("a1", "magic_link")).toEqual({ userId, expiresAt: T0 + HOUR });
      expect(await store.consume("a1", "magic_link")).toEqual({ userId, expiresAt: T0 + HOUR });
      expect(await store.consume("a1", "magic_link")).toBeUndefined();
      expect(await store.peek("a1", "magic_link")).toBeUndefined();
    });

    it("gives a token to exactly one of twenty racing consumes", async () => {
      const { store, userId } = await withUser();
      await store.issue({
        userId,
        purpose: "password_reset",
        digest: "b2",
        expiresAt: T0 + HOUR,
        issuedAt: T0,
      });
      const racing = await Promise.all(
        Array.from({ length: 20 }, () => store.consume("b2", "password_reset")),
      );
      expect(racing.filter((record) => record !== undefined)).toHaveLength(1);
    });

    it("never accepts a token for another purpose", async () => {
      const { store, userId } = await withUser();
      await store.issue({
        userId,
        purpose: "email_confirmation",
        digest: "c3",
        expiresAt: T0 + HOUR,
        issuedAt: T0,
      });
      expect(await store.consume("c3", "magic_link")).toBeUndefined();
      expect(await store.peek("c3", "password_reset")).toBeUndefined();
      expect(await store.consume("c3", "email_confirmation")).toMatchObject({ userId });
    });

    it("replaces a user's previous token of the same purpose, not of another", async () => {
      const { store, userId } = await withUser();
      await store.issue({
        userId,
        purpose: "magic_link",
        digest: "old",
        expiresAt: T0 + HOUR,
        issuedAt: T0,
      });
      await store.issue({
        userId,
        purpose: "password_reset",
        digest: "reset",
        expiresAt: T0 + HOUR,
        issuedAt: T0,
      });
      await store.issue({
        userId,
        purpose: "magic_link",
        digest: "new",
        expiresAt: T0 + 2 * HOUR,
        issuedAt: T0 + 1000,
      });
      expect(await store.consume("old", "magic_link")).toBeUndefined();
      expect(await store.consume("new", "magic_link")).toEqual({
        userId,
        expiresAt: T0 + 2 * HOUR,
      });
      expect(await store.consume("reset", "password_reset")).toMatchObject({ userId });
    });

    it("returns an expired token with its expiry (whole seconds at most rounded down), leaving the judgement to the caller", async () => {
      const { store, userId } = await withUser();
      await store.issue({
        userId,
        purpose: "magic_link",
        digest: "d4",
        expiresAt: T0 - 1,
        issuedAt: T0 - HOUR,
      });
      const consumed = await store.consume("d4", "magic_link");
      expect(consumed?.userId).toBe(userId);
      // A store may keep whole seconds: never later than issued, at most a second earlier.
      expect(consumed!.expiresAt).toBeLessThanOrEqual(T0 - 1);
      expect(consumed!.expiresAt).toBeGreaterThan(T0 - 1 - 1000);
    });
  });
}
