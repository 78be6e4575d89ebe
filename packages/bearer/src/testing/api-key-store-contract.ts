import { describe, expect, it } from "vitest";
import type { ApiKeyStore } from "../api-key-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const HOUR = 3_600_000;

/** A fresh key store, and a way to make the users its keys belong to. */
export interface ApiKeyStoreUnderTest {
  readonly store: ApiKeyStore;
  newUser(): Promise<number>;
}

/** The behaviour every `ApiKeyStore` owes bearer authentication and the key routes. *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { ApiKeyStore } from "@tessera/bearer";
 * import { describeApiKeyStoreContract } from "@tessera/bearer/testing";
 *
 * // Yours: a fresh, empty key store, and a user row for its keys to belong to.
 * declare function openMyApiKeyStore(): Promise<ApiKeyStore>;
 * declare function insertMyUser(): Promise<number>;
 *
 * describeApiKeyStoreContract("MyApiKeyStore", async () => ({
 *   store: await openMyApiKeyStore(),
 *   newUser: insertMyUser,
 * }));
 * ```
 */
export function describeApiKeyStoreContract(
  name: string,
  makeStore: () => Promise<ApiKeyStoreUnderTest>,
) {
  describe(`ApiKeyStore contract: ${name}`, () => {
    it("stores keys, lists a user's own newest first, finds one by digest", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      const first = await store.create({ userId: ada, name: "ci", digest: "d1", createdAt: T0 });
      const second = await store.create({
        userId: ada,
        name: "laptop",
        digest: "d2",
        createdAt: T0 + 1000,
      });
      await store.create({ userId: bob, name: "bob's", digest: "d3", createdAt: T0 });
      expect(first).toMatchObject({ userId: ada, name: "ci", lastUsedAt: null, createdAt: T0 });
      expect((await store.listForUser(ada)).map((key) => key.id)).toEqual([second.id, first.id]);
      expect(await store.findByDigest("d2")).toEqual(second);
      expect(await store.findByDigest("nope")).toBeUndefined();
      expect(JSON.stringify(await store.listForUser(ada))).not.toMatch(/d1|d2/);
    });

    it("deletes only the owner's key: another user's is answered like a missing one", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      const key = await store.create({ userId: ada, name: "ci", digest: "d1", createdAt: T0 });
      expect(await store.deleteForUser(bob, key.id)).toBe(false);
      expect(await store.findByDigest("d1")).toBeDefined();
      expect(await store.deleteForUser(ada, key.id)).toBe(true);
      expect(await store.deleteForUser(ada, key.id)).toBe(false);
      expect(await store.findByDigest("d1")).toBeUndefined();
    });

    it("writes last use when unset or stale, and not again within the hour", async () => {
      const { store, newUser } = await makeStore();
      const key = await store.create({
        userId: await newUser(),
        name: "ci",
        digest: "d1",
        createdAt: T0,
      });
      expect(await store.touchLastUsed(key.id, T0 + 1000, T0 + 1000 - HOUR)).toBe(true);
      expect(await store.touchLastUsed(key.id, T0 + 2000, T0 + 2000 - HOUR)).toBe(false);
      expect((await store.findByDigest("d1"))?.lastUsedAt).toBe(T0 + 1000);
      expect(await store.touchLastUsed(key.id, T0 + 2 * HOUR, T0 + HOUR)).toBe(true);
    });
  });
}
