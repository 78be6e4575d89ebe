// API keys by digest from memory: a revoke through the cache takes effect at once, one by
// another process within the stated staleness; the hourly last-use write still happens once.
import { describe, expect, it } from "vitest";
import { type ApiKeyStore, CachedApiKeyStore, MemoryApiKeyStore } from "../src/index.js";

const HOUR = 3_600_000;

/** A key store shared by two processes: this one's cache counts its digest lookups. */
async function sharedStore(maximumStalenessMs: number, clock?: () => number) {
  const shared = new MemoryApiKeyStore();
  let lookups = 0;
  const counting: ApiKeyStore = {
    create: (key) => shared.create(key),
    listForUser: (userId) => shared.listForUser(userId),
    deleteForUser: (userId, id) => shared.deleteForUser(userId, id),
    findByDigest: (digest) => {
      lookups += 1;
      return shared.findByDigest(digest);
    },
    touchLastUsed: (id, usedAt, staleAt) => shared.touchLastUsed(id, usedAt, staleAt),
  };
  const cached = new CachedApiKeyStore(counting, {
    maximumStalenessMs,
    ...(clock ? { clock } : {}),
  });
  const key = await cached.create({ userId: 7, name: "ci", digest: "d1", createdAt: 0 });
  return { cached, other: shared, key, lookups: () => lookups };
}

describe("CachedApiKeyStore", () => {
  it("queries every time with the default staleness of 0", async () => {
    const { cached, lookups } = await sharedStore(0);
    await cached.findByDigest("d1");
    await cached.findByDigest("d1");
    expect(lookups()).toBe(2);
  });

  it("serves a key from memory; a revoke through it takes effect at once", async () => {
    const { cached, key, lookups } = await sharedStore(60_000);
    expect((await cached.findByDigest("d1"))?.id).toBe(key.id);
    expect((await cached.findByDigest("d1"))?.id).toBe(key.id);
    expect(lookups()).toBe(1);
    expect(await cached.deleteForUser(7, key.id)).toBe(true);
    expect(await cached.findByDigest("d1")).toBeUndefined();
  });

  it("sees another process's revoke once the staleness has passed", async () => {
    let now = 0;
    const { cached, other, key } = await sharedStore(2_000, () => now);
    await cached.findByDigest("d1");
    await other.deleteForUser(7, key.id);
    now = 1_999;
    expect(await cached.findByDigest("d1")).toBeDefined();
    now = 2_000;
    expect(await cached.findByDigest("d1")).toBeUndefined();
  });

  it("rereads a key after its last use was written, so the next request writes nothing", async () => {
    const { cached, key } = await sharedStore(60_000);
    const used = 5 * HOUR;
    expect((await cached.findByDigest("d1"))?.lastUsedAt).toBeNull();
    expect(await cached.touchLastUsed(key.id, used, used - HOUR)).toBe(true);
    expect((await cached.findByDigest("d1"))?.lastUsedAt).toBe(used);
  });
});
