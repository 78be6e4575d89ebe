import { describe, expect, it } from "vitest";
import type { IdentityStore } from "../identity-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

/** A fresh identity store, and a way to make the users its links belong to. */
export interface IdentityStoreUnderTest {
  readonly store: IdentityStore;
  newUser(): Promise<number>;
}

/** The behaviour every `IdentityStore` owes provider sign-in: one link per provider account. *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { IdentityStore } from "@tessera/oauth";
 * import { describeIdentityStoreContract } from "@tessera/oauth/testing";
 *
 * // Yours: a fresh, empty identity store, and a user row for its links.
 * declare function openMyIdentityStore(): Promise<IdentityStore>;
 * declare function insertMyUser(): Promise<number>;
 *
 * describeIdentityStoreContract("MyIdentityStore", async () => ({
 *   store: await openMyIdentityStore(),
 *   newUser: insertMyUser,
 * }));
 * ```
 */
export function describeIdentityStoreContract(
  name: string,
  makeStore: () => Promise<IdentityStoreUnderTest>,
) {
  describe(`IdentityStore contract: ${name}`, () => {
    it("links a provider account once and finds its user by provider and subject", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      const linked = await store.link(
        { userId: ada, provider: "github", subject: "583231", email: "ada@example.com" },
        T0,
      );
      expect(linked.ok && linked.value).toMatchObject({
        userId: ada,
        provider: "github",
        subject: "583231",
        email: "ada@example.com",
        createdAt: T0,
        updatedAt: T0,
      });
      expect(await store.findUserId("github", "583231")).toBe(ada);
      expect(await store.findUserId("google", "583231")).toBeUndefined();
      expect(
        await store.link({ userId: bob, provider: "github", subject: "583231", email: null }, T0),
      ).toEqual({ ok: false, reason: "already-linked" });
      expect(await store.findUserId("github", "583231")).toBe(ada);
    });

    it("lets exactly one of eight racing links of one account win", async () => {
      const { store, newUser } = await makeStore();
      const users = await Promise.all(Array.from({ length: 8 }, () => newUser()));
      const racing = await Promise.all(
        users.map((userId) =>
          store.link({ userId, provider: "okta", subject: "s1", email: null }, T0),
        ),
      );
      expect(racing.filter((result) => result.ok)).toHaveLength(1);
    });

    it("lists a user's identities oldest first, and no one else's", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      await store.link({ userId: ada, provider: "github", subject: "1", email: null }, T0);
      await store.link({ userId: bob, provider: "github", subject: "2", email: null }, T0);
      await store.link({ userId: ada, provider: "google", subject: "3", email: null }, T0 + 1000);
      expect((await store.listForUser(ada)).map((identity) => identity.provider)).toEqual([
        "github",
        "google",
      ]);
    });
  });
}
