import { describe, expect, it } from "vitest";
import {
  createRateLimiter,
  MAXIMUM_STORED_KEY_LENGTH,
  MemoryRateLimitStore,
  type RateLimitStore,
} from "../src/index.js";

const makeStore = async () => new MemoryRateLimitStore();

describe("a limiter on the memory store", () => {
  it("allows 10 attempts a minute, refuses the 11th with the seconds left, and resets", async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 15);
    const limiter = createRateLimiter({ store: await makeStore(), clock: () => now });
    for (let attempt = 1; attempt <= 10; attempt++) {
      const decision = await limiter.attempt("login", "203.0.113.7");
      expect(decision).toEqual({
        allowed: true,
        limit: 10,
        remaining: 10 - attempt,
        retryAfterSeconds: 45,
      });
    }
    expect(await limiter.attempt("login", "203.0.113.7")).toEqual({
      allowed: false,
      limit: 10,
      remaining: 0,
      retryAfterSeconds: 45,
    });
    now += 44_500;
    expect((await limiter.attempt("login", "203.0.113.7")).retryAfterSeconds).toBe(1);
    now += 500; // the next minute begins
    expect(await limiter.attempt("login", "203.0.113.7")).toMatchObject({
      allowed: true,
      remaining: 9,
    });
  });

  it("counts clients and route groups separately, without key confusion", async () => {
    const limiter = createRateLimiter({ store: await makeStore(), limit: 1, clock: () => 0 });
    expect((await limiter.attempt("login", "a")).allowed).toBe(true);
    expect((await limiter.attempt("login", "a")).allowed).toBe(false);
    expect((await limiter.attempt("login", "b")).allowed).toBe(true);
    expect((await limiter.attempt("signup", "a")).allowed).toBe(true);
    expect((await limiter.attempt("a:b", "c")).allowed).toBe(true);
    expect((await limiter.attempt("a", "b:c")).allowed).toBe(true);
  });

  it("gives concurrent attempts distinct counts, so exactly the limit get through", async () => {
    const limiter = createRateLimiter({ store: await makeStore(), clock: () => 0 });
    const decisions = await Promise.all(
      Array.from({ length: 25 }, () => limiter.attempt("token", "198.51.100.1")),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
  });
});

describe("createRateLimiter", () => {
  it("takes a 10-second period as well", async () => {
    let now = 0;
    const limiter = createRateLimiter({
      store: new MemoryRateLimitStore(),
      limit: 2,
      windowMs: 10_000,
      clock: () => now,
    });
    await limiter.attempt("g", "c");
    await limiter.attempt("g", "c");
    expect(await limiter.attempt("g", "c")).toMatchObject({
      allowed: false,
      retryAfterSeconds: 10,
    });
    now = 10_000;
    expect((await limiter.attempt("g", "c")).allowed).toBe(true);
  });

  it("refuses nonsensical settings", () => {
    const store = new MemoryRateLimitStore();
    expect(() => createRateLimiter({ store, limit: 0 })).toThrow(RangeError);
    expect(() => createRateLimiter({ store, limit: 1.5 })).toThrow(RangeError);
    expect(() => createRateLimiter({ store, windowMs: 10 })).toThrow(RangeError);
  });

  it("drops counters of ended windows from memory", async () => {
    let now = 0;
    const store = new MemoryRateLimitStore();
    const limiter = createRateLimiter({ store, clock: () => now });
    for (let client = 0; client < 50; client++) await limiter.attempt("g", String(client));
    expect(store.size).toBe(50);
    now = 60_000;
    await limiter.attempt("g", "new");
    expect(store.size).toBe(1);
  });
});

describe("stored keys", () => {
  /** A memory store that also records every key it is handed. */
  function recordingStore() {
    const memory = new MemoryRateLimitStore();
    const keys: string[] = [];
    const store: RateLimitStore = {
      increment(key, windowStart, windowMs) {
        keys.push(key);
        return memory.increment(key, windowStart, windowMs);
      },
    };
    return { store, keys };
  }

  it("stores a key of any length as at most MAXIMUM_STORED_KEY_LENGTH characters", async () => {
    const { store, keys } = recordingStore();
    const limiter = createRateLimiter({ store, limit: 2, clock: () => 0 });
    const megabyteEmail = `email:${"a".repeat(1_000_000)}@example.com`;
    await limiter.attempt("magic_link", megabyteEmail);
    expect(keys[0]!.length).toBeLessThanOrEqual(MAXIMUM_STORED_KEY_LENGTH);
    expect(keys[0]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("keeps counting one long client in one counter, and two long clients apart", async () => {
    const limiter = createRateLimiter({
      store: new MemoryRateLimitStore(),
      limit: 2,
      clock: () => 0,
    });
    const first = `email:${"a".repeat(5000)}`;
    const second = `email:${"a".repeat(4999)}b`;
    expect((await limiter.attempt("magic_link", first)).allowed).toBe(true);
    expect((await limiter.attempt("magic_link", first)).allowed).toBe(true);
    expect((await limiter.attempt("magic_link", first)).allowed).toBe(false);
    expect((await limiter.attempt("magic_link", second)).allowed).toBe(true);
    expect((await limiter.attempt("password_reset", first)).allowed).toBe(true);
  });

  it("stores short keys readably, as the JSON pair of group and client", async () => {
    const { store, keys } = recordingStore();
    await createRateLimiter({ store, clock: () => 0 }).attempt("login", "203.0.113.7");
    expect(keys).toEqual(['["login","203.0.113.7"]']);
  });
});
