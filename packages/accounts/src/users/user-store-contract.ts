import { describe, expect, it } from "vitest";
import { isUserAdministration, type UserStore } from "./user-store.js";

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
        credentialsChangedAt: null,
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

    it("ends earlier sign-ins with a password change only when asked, in whole seconds", async () => {
      const store = await makeStore();
      const created = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      if (!created.ok) throw new Error("created");
      const { id } = created.value;
      await store.updatePasswordDigest(id, "reset", T0 + 1000);
      expect((await store.findById(id))?.credentialsChangedAt).toBeNull();
      await store.updatePasswordDigest(id, "changed", T0 + 3700, { endSignIns: true });
      expect(await store.findById(id)).toMatchObject({
        passwordDigest: "changed",
        credentialsChangedAt: T0 + 3000,
        updatedAt: T0 + 3000,
      });
      // A later change without ending sign-ins keeps the last time they were ended.
      await store.updatePasswordDigest(id, "again", T0 + 9000);
      expect((await store.findById(id))?.credentialsChangedAt).toBe(T0 + 3000);
    });

    it("changes the email, confirmed now; refuses a taken one and a missing user", async () => {
      const store = await makeStore();
      const ada = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      const bob = await store.create({ email: "bob@example.com", passwordDigest: "d" }, T0);
      if (!ada.ok || !bob.ok) throw new Error("created");
      const changed = await store.changeEmail(ada.value.id, "ada@new.example", T0 + 5500);
      expect(changed).toEqual({ ok: true, value: await store.findById(ada.value.id) });
      expect(changed.ok && changed.value).toMatchObject({
        email: "ada@new.example",
        confirmedAt: T0 + 5000,
        updatedAt: T0 + 5000,
      });
      expect(await store.findByEmail("ada@example.com")).toBeUndefined();
      expect(await store.changeEmail(bob.value.id, "ada@new.example", T0)).toEqual({
        ok: false,
        reason: "email-taken",
      });
      expect((await store.findById(bob.value.id))?.email).toBe("bob@example.com");
      expect(await store.changeEmail(ada.value.id + 1000, "free@example.com", T0)).toEqual({
        ok: false,
        reason: "not-found",
      });
    });

    it("gives one of two users racing for a new address that address", async () => {
      const store = await makeStore();
      const ada = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      const bob = await store.create({ email: "bob@example.com", passwordDigest: "d" }, T0);
      if (!ada.ok || !bob.ok) throw new Error("created");
      const racing = await Promise.all(
        [ada.value.id, bob.value.id].map((id) => store.changeEmail(id, "both@example.com", T0)),
      );
      expect(racing.filter((result) => result.ok)).toHaveLength(1);
      expect(racing.filter((result) => !result.ok)).toEqual([{ ok: false, reason: "email-taken" }]);
    });

    it("updates a user's columns and the update time; undefined for a missing user", async () => {
      const store = await makeStore();
      const created = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      if (!created.ok) throw new Error("created");
      expect(await store.updateColumns(created.value.id + 1000, {}, T0)).toBeUndefined();
      const updated = await store.updateColumns(created.value.id, {}, T0 + 4200);
      expect(updated).toEqual(await store.findById(created.value.id));
      expect(updated?.updatedAt).toBe(T0 + 4000);
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

    it("administers users when it can: role, ban with its end of sign-ins, lift, search", async () => {
      const store = await makeStore();
      if (!isUserAdministration(store)) return;
      const ada = await store.create({ email: "ada@example.com", passwordDigest: "d" }, T0);
      const bob = await store.create({ email: "bob_1%@example.com", passwordDigest: "d" }, T0);
      if (!ada.ok || !bob.ok) throw new Error("created");
      expect(ada.value.role ?? "user").toBe("user");
      expect(ada.value.ban ?? null).toBeNull();
      expect(await store.setRole(ada.value.id, "admin", T0)).toBe(true);
      expect(await store.setRole(ada.value.id + 1000, "admin", T0)).toBe(false);
      expect((await store.findById(ada.value.id))?.role).toBe("admin");

      const banned = await store.ban(
        bob.value.id,
        { reason: "spam", until: T0 + 86_400_000 },
        T0 + 2000,
      );
      expect(banned).toMatchObject({
        ban: { reason: "spam", at: T0 + 2000, until: T0 + 86_400_000 },
        credentialsChangedAt: T0 + 2000,
      });
      expect(await store.findById(bob.value.id)).toEqual(banned);
      const forever = await store.ban(bob.value.id, { reason: "again", until: null }, T0 + 3000);
      expect(forever?.ban).toEqual({ reason: "again", at: T0 + 3000, until: null });
      expect((await store.unban(bob.value.id, T0 + 4000))?.ban ?? null).toBeNull();
      expect(await store.endSignIns(ada.value.id, T0 + 5000)).toBe(true);
      expect((await store.findById(ada.value.id))?.credentialsChangedAt).toBe(T0 + 5000);
      expect(await store.endSignIns(ada.value.id + 1000, T0)).toBe(false);
      expect((await store.findById(ada.value.id))?.impersonationsEndedAt ?? null).toBeNull();
      expect(await store.endImpersonations(ada.value.id, T0 + 6500)).toBe(true);
      expect(await store.findById(ada.value.id)).toMatchObject({
        impersonationsEndedAt: T0 + 6000,
        credentialsChangedAt: T0 + 5000,
      });
      expect(await store.endImpersonations(ada.value.id + 1000, T0)).toBe(false);
      expect(
        await store.ban(bob.value.id + 1000, { reason: "x", until: null }, T0),
      ).toBeUndefined();

      const all = await store.searchUsers({ limit: 10 });
      expect(all.map((user) => user.email)).toEqual(["bob_1%@example.com", "ada@example.com"]);
      expect((await store.searchUsers({ query: "ADA", limit: 10 })).map((user) => user.id)).toEqual(
        [ada.value.id],
      );
      // LIKE's own characters are matched as themselves.
      expect((await store.searchUsers({ query: "_1%", limit: 10 })).map((user) => user.id)).toEqual(
        [bob.value.id],
      );
      expect(await store.searchUsers({ query: "a_a", limit: 10 })).toEqual([]);
      expect(
        (await store.searchUsers({ after: bob.value.id, limit: 10 })).map((user) => user.id),
      ).toEqual([ada.value.id]);
      expect((await store.searchUsers({ offset: 1, limit: 10 })).map((user) => user.id)).toEqual([
        ada.value.id,
      ]);
    });
  });
}
