import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqlUserStore, userMigrations } from "@tessera/accounts/sql";
import { identitiesMigration, SqlIdentityStore } from "@tessera/oauth/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(join(tmpdir(), "tessera-identities-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);

interface IdentityRow {
  id: number;
  user_id: number;
  provider: string;
  subject: string;
  email: string | null;
  created_at: string;
  updated_at: string;
}

let files = 0;
async function setUp() {
  const path = join(folder, `identities-${++files}.db`);
  const database = openSqliteFile(path);
  // Given in the wrong order on purpose: ids decide the order, so identities follows users.
  expect(await applyMigrations(database, [identitiesMigration, ...userMigrations])).toEqual([
    "0001_tessera_users",
    "0006_tessera_identities",
    "0015_tessera_users_credentials_changed_at",
    "0022_tessera_users_administration",
    "0023_tessera_users_impersonations",
  ]);
  const users = new SqlUserStore(database);
  for (const email of ["ada@example.com", "bob@example.com"]) {
    const created = await users.create({ email, passwordDigest: "" }, T0);
    if (!created.ok) throw new Error("the emails differ");
  }
  const rows = () => database.all<IdentityRow>("SELECT * FROM identities ORDER BY id");
  return { path, database, users, store: new SqlIdentityStore(database), rows };
}

const adaAtGitHub = { userId: 1, provider: "github", subject: "583231", email: "ada@example.com" };

describe("SqlIdentityStore", () => {
  it("links a provider account to a user and finds the user by provider and subject", async () => {
    const { database, store, rows } = await setUp();
    expect(await store.findUserId("github", "583231")).toBeUndefined();
    const linked = await store.link(adaAtGitHub, T0);
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
    expect(await rows()).toEqual([
      {
        id: 1,
        user_id: 1,
        provider: "github",
        subject: "583231",
        email: "ada@example.com",
        created_at: "2025-01-01 08:00:00",
        updated_at: "2025-01-01 08:00:00",
      },
    ]);
    expect(await store.findUserId("github", "583231")).toBe(1);
    // The subject is the provider's: the same subject at another provider is someone else.
    expect(await store.findUserId("google", "583231")).toBeUndefined();
    expect(await store.findUserId("github", "5832310")).toBeUndefined();
    database.close();
  });

  it("refuses a second link of one provider account as already linked, keeping the first", async () => {
    const { database, store, rows } = await setUp();
    await store.link(adaAtGitHub, T0);
    const again = await store.link(
      { ...adaAtGitHub, userId: 2, email: "bob@example.com" },
      T0 + 1000,
    );
    expect(again).toEqual({ ok: false, reason: "already-linked" });
    expect((await rows()).map((row) => [row.user_id, row.email])).toEqual([[1, "ada@example.com"]]);
    expect(await store.findUserId("github", "583231")).toBe(1);
    database.close();
  });

  it("lets one user hold several identities, listed oldest first and only to that user", async () => {
    const { database, store } = await setUp();
    await store.link(adaAtGitHub, T0);
    await store.link({ userId: 2, provider: "google", subject: "1", email: null }, T0);
    await store.link({ userId: 1, provider: "google", subject: "2", email: null }, T0 + 60_000);
    const forAda = await store.listForUser(1);
    expect(forAda.map((identity) => [identity.provider, identity.subject])).toEqual([
      ["github", "583231"],
      ["google", "2"],
    ]);
    expect((await store.listForUser(2)).map((identity) => identity.subject)).toEqual(["1"]);
    expect(await store.listForUser(3)).toEqual([]);
    database.close();
  });

  it("deletes a user's identities with the user, and nobody else's", async () => {
    const { database, users, store, rows } = await setUp();
    await store.link(adaAtGitHub, T0);
    await store.link({ userId: 2, provider: "github", subject: "1", email: null }, T0);
    expect(await users.delete(1)).toBe(true);
    expect((await rows()).map((row) => row.user_id)).toEqual([2]);
    expect(await store.findUserId("github", "583231")).toBeUndefined();
    database.close();
  });

  it("refuses a link to a user that does not exist (the foreign key)", async () => {
    const { database, store, rows } = await setUp();
    await expect(store.link({ ...adaAtGitHub, userId: 99 }, T0)).rejects.toThrow(/FOREIGN KEY/);
    expect(await rows()).toEqual([]);
    database.close();
  });
});

describe("identities under concurrent links", () => {
  it("lets exactly one of many simultaneous links of one provider account win", async () => {
    const { database, store, rows } = await setUp();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        store.link({ ...adaAtGitHub, userId: (index % 2) + 1 }, T0),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(
      results.filter((result) => !result.ok && result.reason === "already-linked"),
    ).toHaveLength(19);
    expect(await rows()).toHaveLength(1);
    database.close();
  });

  it("lets exactly one win across two connections to one file", async () => {
    const { path, database, store, rows } = await setUp();
    const second = openSqliteFile(path);
    const otherStore = new SqlIdentityStore(second);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 ? store : otherStore).link({ ...adaAtGitHub, userId: (index % 2) + 1 }, T0),
      ),
    );
    const winners = results.flatMap((result) => (result.ok ? [result.value] : []));
    expect(winners).toHaveLength(1);
    expect((await rows()).map((row) => row.user_id)).toEqual([winners[0]!.userId]);
    second.close();
    database.close();
  });
});
