import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  apiKeyJson,
  createApiKey,
  createBearerAuthenticator,
  createJwtIssuer,
} from "@tessera/bearer";
import { apiKeysMigration, SqlApiKeyStore } from "@tessera/bearer/sql";
import { sha256Hex } from "@tessera/crypto";
import { applyMigrations, isUniqueViolation } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(join(tmpdir(), "tessera-api-keys-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
const HOUR = 3_600_000;

// The users table belongs to @tessera/accounts; this is the least of it the foreign key needs.
const usersMigration = {
  id: "0001_tessera_users",
  sql: "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL)",
};

interface ApiKeyRow {
  id: number;
  user_id: number;
  name: string;
  digest: string;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

let files = 0;
async function setUp() {
  const database = openSqliteFile(join(folder, `keys-${++files}.db`));
  // Given in the wrong order on purpose: ids decide the order, so api_keys follows users.
  expect(await applyMigrations(database, [apiKeysMigration, usersMigration])).toEqual([
    "0001_tessera_users",
    "0002_tessera_api_keys",
  ]);
  await database.run("INSERT INTO users (email) VALUES (?), (?)", [
    "ada@example.com",
    "bob@example.com",
  ]);
  let now = T0;
  const store = new SqlApiKeyStore(database);
  const newKey = async (userId: number, name = "ci") => {
    const created = await createApiKey(store, { userId, name }, () => now);
    if (!created.ok) throw new Error("the name is valid");
    return created.value;
  };
  const rows = () => database.all<ApiKeyRow>("SELECT * FROM api_keys ORDER BY id");
  return {
    database,
    store,
    newKey,
    rows,
    setNow: (ms: number) => {
      now = ms;
    },
    clock: () => now,
  };
}

describe("SqlApiKeyStore", () => {
  it("stores the digest and never the secret, and returns the record without either", async () => {
    const { database, newKey, rows } = await setUp();
    const { key, api_key } = await newKey(1, "deploy");
    expect(api_key).toEqual({
      id: 1,
      user_id: 1,
      name: "deploy",
      last_used_at: null,
      created_at: "2025-01-01 08:00:00",
    });
    expect(await rows()).toEqual([
      {
        id: 1,
        user_id: 1,
        name: "deploy",
        digest: sha256Hex(key),
        last_used_at: null,
        created_at: "2025-01-01 08:00:00",
        updated_at: "2025-01-01 08:00:00",
      },
    ]);
    expect(JSON.stringify(await rows())).not.toContain(key);
    database.close();
  });

  it("finds a key by digest and lists a user's keys newest first, without digests", async () => {
    const { database, store, newKey } = await setUp();
    const first = await newKey(1, "first");
    await newKey(2, "bob's");
    const second = await newKey(1, "second");
    expect(apiKeyJson((await store.findByDigest(sha256Hex(first.key)))!)).toEqual(first.api_key);
    expect(await store.findByDigest(first.key)).toBeUndefined();
    const listed = await store.listForUser(1);
    expect(listed.map(apiKeyJson)).toEqual([second.api_key, first.api_key]);
    for (const record of listed) {
      expect(Object.keys(record).sort()).toEqual([
        "createdAt",
        "id",
        "lastUsedAt",
        "name",
        "userId",
      ]);
    }
    database.close();
  });

  it("deletes a key only for its owner, in the statement itself", async () => {
    const { database, store, newKey, rows } = await setUp();
    const { api_key } = await newKey(1);
    expect(await store.deleteForUser(2, api_key.id)).toBe(false);
    expect(await store.deleteForUser(1, api_key.id + 1)).toBe(false);
    expect(await rows()).toHaveLength(1);
    expect(await store.deleteForUser(1, api_key.id)).toBe(true);
    expect(await rows()).toEqual([]);
    database.close();
  });

  it("refuses a second row with the same digest", async () => {
    const { database, store } = await setUp();
    const key = { userId: 1, name: "a", digest: sha256Hex("x"), createdAt: T0 };
    await store.create(key);
    const error = await store.create({ ...key, userId: 2 }).catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    database.close();
  });

  it("deletes a user's keys with the user", async () => {
    const { database, newKey, rows } = await setUp();
    await newKey(1);
    await newKey(1);
    await newKey(2);
    await database.run("DELETE FROM users WHERE id = ?", [1]);
    expect((await rows()).map((row) => row.user_id)).toEqual([2]);
    database.close();
  });

  it("writes last_used_at once however many requests race for it", async () => {
    const { database, store, newKey } = await setUp();
    const { api_key } = await newKey(1);
    const writes = await Promise.all(
      Array.from({ length: 20 }, () => store.touchLastUsed(api_key.id, T0, T0 - HOUR)),
    );
    expect(writes.filter(Boolean)).toHaveLength(1);
    database.close();
  });
});

describe("bearer authentication on SQLite", () => {
  async function authenticatorFor(setup: Awaited<ReturnType<typeof setUp>>) {
    const authenticator = createBearerAuthenticator({
      jwt: createJwtIssuer({ secrets: { current: "s".repeat(32) }, clock: setup.clock }),
      apiKeys: setup.store,
      findUser: (id) =>
        setup.database.get<{ id: number; email: string }>("SELECT * FROM users WHERE id = ?", [id]),
      clock: setup.clock,
    });
    return (key: string) =>
      authenticator.authenticate(
        new Request("http://app.test/api/auth/me", { headers: { Authorization: `Bearer ${key}` } }),
      );
  }

  it("writes last_used_at on first use, not again within the hour, again after it", async () => {
    const setup = await setUp();
    const authenticate = await authenticatorFor(setup);
    const { key } = await setup.newKey(1);
    const row = async () => (await setup.rows())[0]!;

    setup.setNow(T0 + 61_000);
    expect(await authenticate(key)).toMatchObject({ ok: true, value: { credential: "api_key" } });
    expect(await row()).toMatchObject({
      last_used_at: "2025-01-01 08:01:01",
      updated_at: "2025-01-01 08:01:01",
    });

    setup.setNow(T0 + 61_000 + HOUR - 1000);
    expect((await authenticate(key)).ok).toBe(true);
    expect((await row()).last_used_at).toBe("2025-01-01 08:01:01");

    setup.setNow(T0 + 61_000 + HOUR);
    expect((await authenticate(key)).ok).toBe(true);
    expect(await row()).toMatchObject({
      last_used_at: "2025-01-01 09:01:01",
      updated_at: "2025-01-01 09:01:01",
      created_at: "2025-01-01 08:00:00",
    });
    setup.database.close();
  });

  it("refuses a key as soon as it is revoked, and a deleted user's key", async () => {
    const setup = await setUp();
    const authenticate = await authenticatorFor(setup);
    const revoked = await setup.newKey(1);
    const orphaned = await setup.newKey(2);
    expect(await authenticate(revoked.key)).toMatchObject({
      ok: true,
      value: { user: { id: 1, email: "ada@example.com" }, apiKeyId: revoked.api_key.id },
    });
    expect(await setup.store.deleteForUser(1, revoked.api_key.id)).toBe(true);
    expect(await authenticate(revoked.key)).toEqual({ ok: false, reason: "unknown-api-key" });

    expect((await authenticate(orphaned.key)).ok).toBe(true);
    await setup.database.run("DELETE FROM users WHERE id = ?", [2]);
    expect(await authenticate(orphaned.key)).toEqual({ ok: false, reason: "unknown-api-key" });
    setup.database.close();
  });
});
