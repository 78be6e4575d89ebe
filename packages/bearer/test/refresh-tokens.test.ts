import { sha256Hex } from "@tessera/crypto";
import { describe, expect, it } from "vitest";
import { createJwtIssuer } from "../src/jwt.js";
import { MemoryRefreshTokenStore } from "../src/refresh/memory-refresh-token-store.js";
import {
  REFRESH_TOKEN_LIFETIME_SECONDS,
  type RefreshTokensOptions,
  refreshTokens,
} from "../src/refresh/refresh-tokens.js";

// A whole second, so stored times and the clock line up exactly.
const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
const DAY = 86_400_000;
const SECRETS = { current: "a secret key base of at least thirty-two characters" };
const SIGN_IN = { at: T0 - 5000, factors: ["password", "totp"] };
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** The service on a memory store, on a clock the test moves. */
function setUp(options: Partial<RefreshTokensOptions> = {}) {
  const store = new MemoryRefreshTokenStore();
  const clock = { now: T0 };
  const service = refreshTokens({
    store,
    secretKeyBase: SECRETS,
    clock: () => clock.now,
    ...options,
  });
  const signIn = (userId = 7) =>
    service.issue({
      userId,
      authentication: SIGN_IN,
      userAgent: USER_AGENT,
      ipAddress: "203.0.113.7",
    });
  return { store, clock, service, signIn };
}

describe("issue", () => {
  it("gives a 43-character token lasting 30 days, and stores only its digest", async () => {
    const { store, signIn } = setUp();
    const issued = await signIn();
    expect(issued.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.expiresIn).toBe(REFRESH_TOKEN_LIFETIME_SECONDS);
    expect(REFRESH_TOKEN_LIFETIME_SECONDS).toBe(30 * 86_400);
    const found = await store.findToken(sha256Hex(issued.refreshToken));
    expect(found?.family).toMatchObject({
      userId: 7,
      createdAt: T0,
      lastUsedAt: T0,
      expiresAt: T0 + 30 * DAY,
      revokedAt: null,
      userAgent: USER_AGENT,
      ipAddress: "203.0.113.7",
      authTime: T0 - 5000,
      factors: ["password", "totp"],
    });
    expect(JSON.stringify(found)).not.toContain(issued.refreshToken);
  });

  it("cuts the user agent to 512 characters, and keeps none for a blank one", async () => {
    const { store, service } = setUp();
    const long = await service.issue({
      userId: 7,
      authentication: SIGN_IN,
      userAgent: ` ${"a".repeat(600)}`,
    });
    const blank = await service.issue({ userId: 7, authentication: SIGN_IN, userAgent: "  " });
    const family = async (token: string) => (await store.findToken(sha256Hex(token)))?.family;
    expect((await family(long.refreshToken))?.userAgent).toBe("a".repeat(512));
    expect(await family(blank.refreshToken)).toMatchObject({ userAgent: null, ipAddress: null });
  });

  it("refuses bad factors and a sign-in made by someone acting for the user", async () => {
    const { service } = setUp();
    for (const factors of [[], ["Password"], ["a", "b", "c", "d"]]) {
      await expect(
        service.issue({ userId: 7, authentication: { at: T0, factors } }),
      ).rejects.toThrow(RangeError);
    }
    await expect(
      service.issue({ userId: 7, authentication: { ...SIGN_IN, actor: "1" } }),
    ).rejects.toThrow(RangeError);
  });

  it("refuses a lifetime or a grace out of range", () => {
    const store = new MemoryRefreshTokenStore();
    for (const options of [
      { ttlSeconds: 0 },
      { ttlSeconds: 1.5 },
      { graceMs: -1 },
      { graceMs: 60_001 },
    ]) {
      expect(() => refreshTokens({ store, secretKeyBase: SECRETS, ...options })).toThrow(
        RangeError,
      );
    }
  });
});

describe("rotate", () => {
  it("exchanges a token for a new one of the same family, carrying the original sign-in", async () => {
    const { store, clock, service, signIn } = setUp();
    const issued = await signIn();
    clock.now = T0 + DAY;
    const rotated = await service.rotate(issued.refreshToken);
    expect(rotated).toEqual({
      ok: true,
      userId: 7,
      familyId: expect.any(Number),
      refreshToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      // The family's end does not move: a day of the 30 is gone.
      expiresIn: 29 * 86_400,
      authentication: { at: T0 - 5000, factors: ["password", "totp"] },
    });
    if (!rotated.ok) throw new Error("rotated");
    expect(rotated.refreshToken).not.toBe(issued.refreshToken);
    const old = await store.findToken(sha256Hex(issued.refreshToken));
    expect(old?.token.usedAt).toBe(T0 + DAY);
    expect(old?.family.lastUsedAt).toBe(T0 + DAY);
    expect(old?.family.expiresAt).toBe(T0 + 30 * DAY);
    expect((await store.findToken(sha256Hex(rotated.refreshToken)))?.token.familyId).toBe(
      rotated.familyId,
    );

    clock.now = T0 + 10 * DAY;
    const again = await service.rotate(rotated.refreshToken);
    expect(again).toMatchObject({ ok: true, familyId: rotated.familyId, expiresIn: 20 * 86_400 });
  });

  it("gives access tokens minted on refresh the original sign-in's auth_time and amr", async () => {
    const { clock, service, signIn } = setUp();
    const issued = await signIn();
    clock.now = T0 + DAY;
    const rotated = await service.rotate(issued.refreshToken);
    if (!rotated.ok) throw new Error("rotated");
    const jwt = createJwtIssuer({ secrets: SECRETS, clock: () => clock.now });
    const access = await jwt.issue(rotated.userId, rotated.authentication);
    const verified = await jwt.verify(access.token);
    expect(verified.ok && verified.value.authentication).toEqual({
      at: T0 - 5000,
      factors: ["password", "totp"],
    });
  });

  it("gives a retry within the grace the same successor, and revokes the family after it", async () => {
    const { store, clock, service, signIn } = setUp();
    const issued = await signIn();
    clock.now = T0 + 1000;
    const first = await service.rotate(issued.refreshToken);
    if (!first.ok) throw new Error("rotated");
    clock.now = T0 + 11_000; // 10 s after the use: still within the grace
    expect(await service.rotate(issued.refreshToken)).toEqual({
      ...first,
      refreshToken: first.refreshToken,
      expiresIn: first.expiresIn - 10,
    });
    clock.now = T0 + 11_001;
    expect(await service.rotate(issued.refreshToken)).toEqual({ ok: false, reason: "reused" });
    // The whole family is gone: the successor the thief or the user holds refreshes nothing.
    expect(await service.rotate(first.refreshToken)).toEqual({ ok: false, reason: "revoked" });
    expect(await store.listFamilies(7, clock.now)).toEqual([]);
  });

  it("revokes the family when a token is used again past a shorter grace", async () => {
    const { clock, service, signIn } = setUp({ graceMs: 0 });
    const issued = await signIn();
    const first = await service.rotate(issued.refreshToken);
    expect(first.ok).toBe(true);
    clock.now = T0 + 1;
    expect(await service.rotate(issued.refreshToken)).toEqual({ ok: false, reason: "reused" });
  });

  it("gives 20 concurrent refreshes with one token the same new token, made once", async () => {
    const { store, clock, service, signIn } = setUp();
    const issued = await signIn();
    clock.now = T0 + 1000;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => service.rotate(issued.refreshToken)),
    );
    const tokens = new Set(results.map((result) => (result.ok ? result.refreshToken : "failed")));
    expect(tokens.size).toBe(1);
    const [next] = [...tokens];
    expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const old = await store.findToken(sha256Hex(issued.refreshToken));
    // One successor: the family's tokens are the first and the one every caller got.
    expect(old?.token.successorSealed).not.toBeNull();
    expect((await store.findToken(sha256Hex(next!)))?.token).toMatchObject({
      familyId: old?.family.id,
      usedAt: null,
    });
    expect(await service.rotate(next)).toMatchObject({ ok: true });
  });

  it("refuses what is not a token it issued, without throwing", async () => {
    const { service, signIn } = setUp();
    const issued = await signIn();
    const hostile: unknown[] = [
      undefined,
      null,
      42,
      {},
      [issued.refreshToken],
      "",
      issued.refreshToken.slice(1),
      `${issued.refreshToken}A`,
      `${issued.refreshToken.slice(1)}=`,
      `${issued.refreshToken.slice(1)}+`,
      ` ${issued.refreshToken.slice(1)}`,
      "A".repeat(43),
      "x".repeat(100_000),
    ];
    for (const value of hostile) {
      expect(await service.rotate(value)).toEqual({ ok: false, reason: "unknown" });
      expect(await service.revoke(value)).toBe(false);
    }
    expect((await service.rotate(issued.refreshToken)).ok).toBe(true);
  });

  it("refuses every token of a family once it ends, and revokes nothing for it", async () => {
    const { store, clock, service, signIn } = setUp({ ttlSeconds: 3600 });
    const issued = await signIn();
    clock.now = T0 + 3_599_999;
    const rotated = await service.rotate(issued.refreshToken);
    expect(rotated).toMatchObject({ ok: true, expiresIn: 1 });
    if (!rotated.ok) throw new Error("rotated");
    clock.now = T0 + 3_600_000;
    expect(await service.rotate(rotated.refreshToken)).toEqual({ ok: false, reason: "expired" });
    expect(await service.rotate(issued.refreshToken)).toEqual({ ok: false, reason: "expired" });
    expect((await store.findToken(sha256Hex(issued.refreshToken)))?.family.revokedAt).toBeNull();
  });

  it("opens successors sealed under the previous secret key base, and no other", async () => {
    const { store, clock, service, signIn } = setUp();
    const issued = await signIn();
    const first = await service.rotate(issued.refreshToken);
    const rotatedSecrets = {
      current: "another secret key base of thirty-two characters",
      previous: SECRETS.current,
    };
    const after = refreshTokens({ store, secretKeyBase: rotatedSecrets, clock: () => clock.now });
    expect(await after.rotate(issued.refreshToken)).toEqual(first);
    const foreign = refreshTokens({
      store,
      secretKeyBase: { current: rotatedSecrets.current },
      clock: () => clock.now,
    });
    // Not opened, so not the same pair: treated as a reuse.
    expect(await foreign.rotate(issued.refreshToken)).toEqual({ ok: false, reason: "reused" });
  });
});

describe("revoke", () => {
  it("revokes the token's family: sign-out of one device, the others stay", async () => {
    const { store, clock, service, signIn } = setUp();
    const phone = await signIn();
    const laptop = await signIn();
    clock.now = T0 + 1000;
    expect(await service.revoke(phone.refreshToken)).toBe(true);
    expect(await service.rotate(phone.refreshToken)).toEqual({ ok: false, reason: "revoked" });
    expect((await service.rotate(laptop.refreshToken)).ok).toBe(true);
    expect(await store.listFamilies(7, clock.now)).toHaveLength(1);
    expect(await service.revoke(phone.refreshToken)).toBe(true);
  });
});

describe("on the real clock", () => {
  it("refuses a token once its family's lifetime has passed", async () => {
    const service = refreshTokens({
      store: new MemoryRefreshTokenStore(),
      secretKeyBase: SECRETS,
      ttlSeconds: 1,
    });
    const issuedAt = Date.now();
    const issued = await service.issue({
      userId: 7,
      authentication: { at: issuedAt, factors: ["password"] },
    });
    // Read after issue: the service's clock was at or before it, so the family (which ends a
    // second after that, rounded down) has ended once a second has passed from here.
    const issuedBy = Date.now();
    expect(issued.expiresIn).toBe(1);
    while (Date.now() < issuedBy + 1000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await service.rotate(issued.refreshToken)).toEqual({ ok: false, reason: "expired" });
  });
});
