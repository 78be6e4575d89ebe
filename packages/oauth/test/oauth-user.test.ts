import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UserStore } from "@tessera/accounts";
import { SqlUserStore, userMigrations } from "@tessera/accounts/sql";
import { identitiesMigration, SqlIdentityStore } from "@tessera/oauth/sql";
// Until @tessera/sqlite's index exports them: then `from "@tessera/sqlite"`.
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryIdentityStore, type ProviderProfile, resolveOAuthUser } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-oauth-user-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
const PASSWORD_DIGEST = `pbkdf2_sha256$100000$${"A".repeat(22)}$${"B".repeat(43)}`;
const ada: ProviderProfile = { subject: "ada-sub", email: "ada@example.com", emailVerified: true };

let files = 0;
async function setUp() {
  const database = openSqliteFile(join(folder, `users-${++files}.db`));
  await applyMigrations(database, [...userMigrations, identitiesMigration]);
  const users = new SqlUserStore(database);
  const identities = new SqlIdentityStore(database);
  const dependencies = { users, identities, clock: () => T0 };
  const counts = async () => ({
    users: (await database.get<{ n: number }>("SELECT count(*) AS n FROM users"))!.n,
    identities: (await database.get<{ n: number }>("SELECT count(*) AS n FROM identities"))!.n,
  });
  return { database, users, identities, dependencies, counts };
}

describe("resolveOAuthUser", () => {
  it("creates, then finds by identity: outcomes created, then returning", async () => {
    const { database, dependencies, counts } = await setUp();
    const first = await resolveOAuthUser(dependencies, "google", ada);
    expect(first.ok && [first.value.outcome, first.value.user.id]).toEqual(["created", 1]);
    const again = await resolveOAuthUser(dependencies, "google", ada);
    expect(again.ok && [again.value.outcome, again.value.user.id]).toEqual(["returning", 1]);
    // The same subject at another provider is another account: linked to the same user by email.
    const elsewhere = await resolveOAuthUser(dependencies, "github", ada);
    expect(elsewhere.ok && [elsewhere.value.outcome, elsewhere.value.user.id]).toEqual([
      "linked",
      1,
    ]);
    expect(await counts()).toEqual({ users: 1, identities: 2 });
    database.close();
  });

  it("signs a linked user in whatever the provider now says of the email", async () => {
    const { database, dependencies } = await setUp();
    await resolveOAuthUser(dependencies, "google", ada);
    const unverified = { subject: "ada-sub", email: "other@example.com", emailVerified: false };
    const result = await resolveOAuthUser(dependencies, "google", unverified);
    expect(result.ok && result.value.user.email).toBe("ada@example.com");
    database.close();
  });

  it("confirms a returning user only for a verified provider email equal to theirs", async () => {
    const { database, users, identities, dependencies } = await setUp();
    const created = await users.create({ email: "ada@example.com", passwordDigest: "" }, T0);
    if (!created.ok) throw new Error("free");
    await identities.link({ userId: 1, provider: "google", subject: "ada-sub", email: null }, T0);

    const otherEmail = { ...ada, email: "countess@example.com" };
    const notYet = await resolveOAuthUser(dependencies, "google", otherEmail);
    expect(notYet.ok && notYet.value.user.confirmedAt).toBeNull();
    const confirmed = await resolveOAuthUser(dependencies, "google", ada);
    expect(confirmed.ok && confirmed.value.user.confirmedAt).toBe(T0);
    database.close();
  });

  it("refuses a missing or unverified email before touching users", async () => {
    const { database, dependencies, counts } = await setUp();
    const missing = { subject: "x", email: undefined, emailVerified: true };
    expect(await resolveOAuthUser(dependencies, "google", missing)).toEqual({
      ok: false,
      reason: "email-missing",
    });
    const unverified = { ...ada, emailVerified: false };
    expect(await resolveOAuthUser(dependencies, "google", unverified)).toEqual({
      ok: false,
      reason: "email-unverified",
    });
    expect(await counts()).toEqual({ users: 0, identities: 0 });
    database.close();
  });

  it("reports a conflict for an identity whose user is gone (a store that does not cascade)", async () => {
    const { database, users } = await setUp();
    const identities = new MemoryIdentityStore();
    await identities.link({ userId: 7, provider: "google", subject: "ada-sub", email: null }, T0);
    const result = await resolveOAuthUser({ users, identities, clock: () => T0 }, "google", ada);
    expect(result).toEqual({ ok: false, reason: "conflict" });
    database.close();
  });
});

describe("resolveOAuthUser under concurrent sign-ins", () => {
  it("makes one user and one link when one new provider account signs in twice at once", async () => {
    const { database, dependencies, counts } = await setUp();
    // Started together, the two interleave at every await: both find no identity and no user,
    // one creates the user and the other loses the email race, then one loses the link race.
    const results = await Promise.all([
      resolveOAuthUser(dependencies, "google", ada),
      resolveOAuthUser(dependencies, "google", ada),
    ]);
    expect(
      results.map((result) => result.ok && [result.value.outcome, result.value.user.id]),
    ).toEqual([
      ["created", 1],
      ["returning", 1],
    ]);
    expect(await counts()).toEqual({ users: 1, identities: 1 });
    database.close();
  });

  it("links the user of a sign-up that took the address between lookup and create", async () => {
    const { database, users, identities, counts } = await setUp();
    // The real store, with a sign-up landing right after the sign-in's lookup by email.
    let signUpDone = false;
    const racedUsers: UserStore = {
      create: (user, now) => users.create(user, now),
      findById: (id) => users.findById(id),
      async findByEmail(email) {
        const found = await users.findByEmail(email);
        if (!signUpDone) {
          signUpDone = true;
          await users.create({ email, passwordDigest: PASSWORD_DIGEST }, T0);
        }
        return found;
      },
      delete: (id) => users.delete(id),
      updatePasswordDigest: (id, digest, now) => users.updatePasswordDigest(id, digest, now),
      confirm: (id, now) => users.confirm(id, now),
      changeEmail: (id, email, now) => users.changeEmail(id, email, now),
      updateColumns: (id, columns, now) => users.updateColumns(id, columns, now),
    };
    const resolved = await resolveOAuthUser(
      { users: racedUsers, identities, clock: () => T0 },
      "google",
      ada,
    );
    expect(resolved.ok && resolved.value).toMatchObject({
      outcome: "linked",
      user: { id: 1, passwordDigest: "", confirmedAt: T0 },
      // The sign-up's password was never confirmed: it goes.
      passwordRemoved: true,
    });
    expect(await counts()).toEqual({ users: 1, identities: 1 });
    database.close();
  });
});

describe("MemoryIdentityStore", () => {
  it("links once per provider account, finds by provider and subject, lists by user", async () => {
    const store = new MemoryIdentityStore();
    const linked = await store.link(
      { userId: 1, provider: "github", subject: "583231", email: "ada@example.com" },
      T0,
    );
    expect(linked).toEqual({
      ok: true,
      value: {
        id: 1,
        userId: 1,
        provider: "github",
        subject: "583231",
        email: "ada@example.com",
        createdAt: T0,
        updatedAt: T0,
      },
    });
    const again = await store.link(
      { userId: 2, provider: "github", subject: "583231", email: null },
      T0,
    );
    expect(again).toEqual({ ok: false, reason: "already-linked" });
    await store.link({ userId: 1, provider: "google", subject: "583231", email: null }, T0);
    expect(await store.findUserId("github", "583231")).toBe(1);
    expect(await store.findUserId("gitlab", "583231")).toBeUndefined();
    expect((await store.listForUser(1)).map((identity) => identity.provider)).toEqual([
      "github",
      "google",
    ]);
    expect(await store.listForUser(2)).toEqual([]);
  });
});
