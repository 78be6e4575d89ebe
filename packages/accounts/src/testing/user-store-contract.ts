import { describe, expect, it } from "vitest";
import type { UserStore } from "../user-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

/**
 * The behaviour every `UserStore` owes its callers, run against each implementation (memory,
 * SQLite, and any store of yours): `makeStore` gives a fresh, empty store.
 *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { UserStore } from "@tessera/accounts";
 * import { describeUserStoreContract } from "@tessera/accounts/testing";
 *
 * // Yours: a fresh, empty store over your database, made for each test.
 * declare function openMyUserStore(): Promise<UserStore>;
 *
 * describeUserStoreContract("MyUserStore", openMyUserStore);
 * ```
 */
export function describeUserStoreContract(name: string, makeStore: () => Promise<UserStore>) {
  describe(`UserStore contract: ${name}`, () => {
    it("creates a user with its times (whole seconds) and finds it by id and by email", async () => {
      const store = await makeStore();
      const created = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      expect(created.ok).toBe(true);
      if (!created.ok) return;
      expect(created.value).toMatchObject({
        email: "ada@example.com",
        passwordDigest: "d",
        confirmedAt: null,
        createdAt: T0,
        updatedAt: T0,
      });
      expect(await store.findById(created.value.id)).toEqual(created.value);
      expect(await store.findByEmail("ada@example.com")).toEqual(created.value);
      expect(await store.findByEmail("bob@example.com")).toBeUndefined();
      expect(await store.findById(created.value.id + 1000)).toBeUndefined();
    });

    it("refuses a taken email, and exactly one of six racing creates wins", async () => {
      const store = await makeStore();
      await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      expect(await store.create({ email: "ada@example.com", passwordDigest: "e" }, T0)).toEqual({
        ok: false,
        reason: "email-taken",
      });
      const racing = await Promise.all(
        Array.from({ length: 6 }, () =>
          store.create({ email: "bob@example.com", passwordDigest: "d" }, T0),
        ),
      );
      expect(racing.filter((result) => result.ok)).toHaveLength(1);
    });

    it("confirms once: a later confirm keeps the first time", async () => {
      const store = await makeStore();
      const created = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      if (!created.ok) throw new Error("created");
      await store.confirm(created.value.id, T0 + 1000);
      await store.confirm(created.value.id, T0 + 60_000);
      expect((await store.findById(created.value.id))?.confirmedAt).toBe(T0 + 1000);
    });

    it("changes the password digest and the update time", async () => {
      const store = await makeStore();
      const created = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      if (!created.ok) throw new Error("created");
      // 2.5 s later: a store keeps whole seconds, rounding down.
      await store.updatePasswordDigest(created.value.id, "new", T0 + 2500);
      expect(await store.findById(created.value.id)).toMatchObject({
        passwordDigest: "new",
        updatedAt: T0 + 2000,
        createdAt: T0,
      });
    });

    it("deletes a user once: true, then false, and the email is free again", async () => {
      const store = await makeStore();
      const created = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      if (!created.ok) throw new Error("created");
      expect(await store.delete(created.value.id)).toBe(true);
      expect(await store.delete(created.value.id)).toBe(false);
      expect(await store.findByEmail("ada@example.com")).toBeUndefined();
      const again = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      expect(again.ok && again.value.id).not.toBe(created.value.id);
    });
  });
}
