import { formatTimestamp } from "@tessera/core";
import { sha256Hex } from "@tessera/crypto";
import { describe, expect, it } from "vitest";
import { apiKeyJson } from "../src/api-key-json.js";
import { createApiKey } from "../src/create-api-key.js";
import { MemoryApiKeyStore } from "../src/memory-api-key-store.js";

const T0 = Date.UTC(2025, 0, 1, 12, 30, 15, 999);
const clock = () => T0;

async function created(store: MemoryApiKeyStore, userId: number, name: unknown) {
  const result = await createApiKey(store, { userId, name }, clock);
  if (!result.ok) throw new Error(`expected a key, got ${JSON.stringify(result.fields)}`);
  return result.value;
}

describe("createApiKey", () => {
  it("returns a 43-character URL-safe secret once, and the record in its JSON form", async () => {
    const store = new MemoryApiKeyStore();
    const { key, api_key } = await created(store, 3, "  deploy bot  ");
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(api_key).toEqual({
      id: 1,
      user_id: 3,
      name: "deploy bot",
      last_used_at: null,
      created_at: "2025-01-01 12:30:15",
    });
    expect(Object.keys(api_key).sort()).toEqual([
      "created_at",
      "id",
      "last_used_at",
      "name",
      "user_id",
    ]);
  });

  it("stores the key's SHA-256 digest, by which it is found, and nowhere the secret", async () => {
    const store = new MemoryApiKeyStore();
    const { key, api_key } = await created(store, 3, "ci");
    expect(apiKeyJson((await store.findByDigest(sha256Hex(key)))!)).toEqual(api_key);
    expect(await store.findByDigest(key)).toBeUndefined();
    const listed = JSON.stringify(await store.listForUser(3));
    expect(listed).not.toContain(key);
    expect(listed).not.toContain(sha256Hex(key));
  });

  it("makes a different secret every time", async () => {
    const store = new MemoryApiKeyStore();
    const keys = new Set<string>();
    for (let i = 0; i < 20; i++) keys.add((await created(store, 1, `key ${i}`)).key);
    expect(keys.size).toBe(20);
  });

  it("validates the name and stores nothing when it fails", async () => {
    const store = new MemoryApiKeyStore();
    const cases: [unknown, string][] = [
      [undefined, "can't be blank"],
      [null, "can't be blank"],
      ["", "can't be blank"],
      [" \t\n ", "can't be blank"],
      [42, "is invalid"],
      [["ci"], "is invalid"],
      // PostgreSQL refuses a NUL and SQLite keeps it; a lone surrogate has no UTF-8 form.
      ["ci\u0000", "is invalid"],
      ["\u0000", "is invalid"],
      ["ci\ud800", "is invalid"],
      ["x".repeat(101), "is too long (maximum is 100 characters)"],
      [` ${"😀".repeat(101)} `, "is too long (maximum is 100 characters)"],
    ];
    for (const [name, message] of cases) {
      expect(await createApiKey(store, { userId: 1, name }, clock)).toEqual({
        ok: false,
        reason: "invalid-name",
        fields: { name: [message] },
      });
    }
    expect(await store.listForUser(1)).toEqual([]);
  });

  it("accepts 100 characters after trimming, counting an emoji as one", async () => {
    const store = new MemoryApiKeyStore();
    expect((await created(store, 1, ` ${"x".repeat(100)} `)).api_key.name).toBe("x".repeat(100));
    expect((await created(store, 1, "😀".repeat(100))).api_key.name).toBe("😀".repeat(100));
  });
});

describe("MemoryApiKeyStore", () => {
  it("lists only the user's keys, newest first", async () => {
    const store = new MemoryApiKeyStore();
    await created(store, 1, "first");
    await created(store, 2, "someone else's");
    await created(store, 1, "second");
    expect((await store.listForUser(1)).map((key) => key.name)).toEqual(["second", "first"]);
    expect(await store.listForUser(99)).toEqual([]);
  });

  it("deletes a key only for its owner", async () => {
    const store = new MemoryApiKeyStore();
    const { key, api_key } = await created(store, 1, "ci");
    expect(await store.deleteForUser(2, api_key.id)).toBe(false);
    expect(apiKeyJson((await store.findByDigest(sha256Hex(key)))!)).toEqual(api_key);
    expect(await store.deleteForUser(1, api_key.id)).toBe(true);
    expect(await store.findByDigest(sha256Hex(key))).toBeUndefined();
    expect(await store.deleteForUser(1, api_key.id)).toBe(false);
  });

  it("writes last_used_at when null or at least an hour old, at one-second precision", async () => {
    const store = new MemoryApiKeyStore();
    const { api_key } = await created(store, 1, "ci");
    const hour = 3_600_000;
    const lastUsed = async () => {
      const used = (await store.listForUser(1))[0]!.lastUsedAt;
      return used === null ? null : formatTimestamp(used);
    };
    expect(await store.touchLastUsed(api_key.id, T0, T0 - hour)).toBe(true);
    expect(await lastUsed()).toBe("2025-01-01 12:30:15");
    // 12:30:15.999 is stored as 12:30:15, so 13:30:15.000 is already an hour later.
    expect(await store.touchLastUsed(api_key.id, T0 + hour - 1000, T0 - 1000)).toBe(false);
    expect(await store.touchLastUsed(api_key.id, T0 + hour - 999, T0 - 999)).toBe(true);
    expect(await lastUsed()).toBe("2025-01-01 13:30:15");
    expect(await store.touchLastUsed(999, T0, T0 - hour)).toBe(false);
  });

  it("refuses a second key with the same digest", async () => {
    const store = new MemoryApiKeyStore();
    const key = { userId: 1, name: "a", digest: sha256Hex("secret"), createdAt: T0 };
    await store.create(key);
    await expect(store.create(key)).rejects.toThrow("digest");
  });
});
