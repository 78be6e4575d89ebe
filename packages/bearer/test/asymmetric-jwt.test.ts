import { decodeBase64url, encodeBase64url } from "@tessera/crypto";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createJwtIssuer } from "../src/jwt.js";
import type { AsymmetricJwtAlgorithm } from "../src/jwt-algorithm.js";
import { keySet, rotateSigningKey } from "../src/keys/key-set.js";
import { MemorySigningKeyStore } from "../src/keys/memory-signing-key-store.js";
import { generateSigningKey } from "../src/keys/signing-key.js";

const T0 = Date.UTC(2025, 0, 1);
const IAT = T0 / 1000;
const ISSUER = "https://app.example";
const SECRET = "a secret key base of at least thirty-two characters";

function parts(token: string): { header: Record<string, unknown>; payload: unknown } {
  const [header, payload] = token.split(".");
  const decode = (text: string) => JSON.parse(new TextDecoder().decode(decodeBase64url(text)));
  return { header: decode(header!), payload: decode(payload!) };
}

/** An issuer of `algorithm` over a fresh memory store, and the clock it reads. */
async function setUp(algorithm: AsymmetricJwtAlgorithm, audience?: string) {
  const time = { now: T0 };
  const clock = () => time.now;
  const store = new MemorySigningKeyStore();
  const keys = await keySet({ algorithm, store, clock });
  const issuer = createJwtIssuer({ algorithm, keys, clock, issuer: ISSUER, audience });
  return { time, clock, store, keys, issuer };
}

describe.each(["EdDSA", "ES256"] as const)("%s tokens", (algorithm) => {
  it("are issued with kid, iss and aud, and verified", async () => {
    const { issuer, store } = await setUp(algorithm, "mobile");
    const [stored] = await store.list();
    const issued = await issuer.issue(42, { at: T0, factors: ["password"] });
    expect(issued.expiresIn).toBe(3600);
    expect(parts(issued.token)).toEqual({
      header: { alg: algorithm, typ: "JWT", kid: stored!.privateJwk.kid },
      payload: {
        sub: "42",
        iat: IAT,
        exp: IAT + 3600,
        iss: ISSUER,
        aud: "mobile",
        auth_time: IAT,
        amr: ["password"],
      },
    });
    expect(await issuer.verify(issued.token)).toEqual({
      ok: true,
      value: {
        subject: "42",
        issuedAt: IAT,
        expiresAt: IAT + 3600,
        authentication: { at: T0, factors: ["password"] },
      },
    });
  });

  it("refuses another issuer's or audience's token signed by the same keys", async () => {
    const { issuer, keys, clock } = await setUp(algorithm, "mobile");
    const { token } = await issuer.issue(1);
    const elsewhere = createJwtIssuer({ algorithm, keys, clock, issuer: "https://other.example" });
    expect(await elsewhere.verify(token)).toEqual({ ok: false, reason: "invalid-claims" });
    const otherAudience = createJwtIssuer({
      algorithm,
      keys,
      clock,
      issuer: ISSUER,
      audience: "web",
    });
    expect(await otherAudience.verify(token)).toEqual({ ok: false, reason: "invalid-claims" });
  });

  it("refuses an expired token at exp exactly", async () => {
    const { issuer, time } = await setUp(algorithm);
    const { token } = await issuer.issue(1);
    time.now = T0 + 3600_000 - 1;
    expect((await issuer.verify(token)).ok).toBe(true);
    time.now = T0 + 3600_000;
    expect(await issuer.verify(token)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a token whose kid names no key of the set, or that has no kid", async () => {
    const { issuer } = await setUp(algorithm);
    const stranger = await setUp(algorithm);
    const { token } = await stranger.issuer.issue(1);
    expect(await issuer.verify(token)).toEqual({ ok: false, reason: "unknown-key" });
    const foreign = await generateSigningKey(algorithm);
    const { importJWK } = await import("jose");
    const noKid = await new SignJWT({})
      .setProtectedHeader({ alg: algorithm })
      .setSubject("1")
      .setIssuedAt(IAT)
      .setExpirationTime(IAT + 60)
      .sign(await importJWK(foreign, algorithm));
    expect(await issuer.verify(noKid)).toEqual({ ok: false, reason: "unknown-key" });
  });

  it("refuses a token of our kid signed by another key", async () => {
    const { issuer, store } = await setUp(algorithm);
    const [stored] = await store.list();
    const foreign = await generateSigningKey(algorithm);
    const { importJWK } = await import("jose");
    const forged = await new SignJWT({ iss: ISSUER })
      .setProtectedHeader({ alg: algorithm, typ: "JWT", kid: stored!.privateJwk.kid })
      .setSubject("1")
      .setIssuedAt(IAT)
      .setExpirationTime(IAT + 60)
      .sign(await importJWK(foreign, algorithm));
    expect(await issuer.verify(forged)).toEqual({ ok: false, reason: "bad-signature" });
  });

  it("refuses an HS256 token whose secret is the public key (algorithm confusion)", async () => {
    const { issuer, store, keys } = await setUp(algorithm);
    const [stored] = await store.list();
    const kid = stored!.privateJwk.kid;
    const publicJwk = (await keys.publicJwks()).keys[0]!;
    // Every form of the public key an attacker could feed an HMAC: the JWK's JSON, `x` decoded.
    for (const secret of [
      new TextEncoder().encode(JSON.stringify(publicJwk)),
      decodeBase64url(publicJwk.x),
      new TextEncoder().encode(publicJwk.x),
    ]) {
      const forged = await new SignJWT({ iss: ISSUER })
        .setProtectedHeader({ alg: "HS256", typ: "JWT", kid })
        .setSubject("1")
        .setIssuedAt(IAT)
        .setExpirationTime(IAT + 60)
        .sign(secret);
      expect(await issuer.verify(forged)).toEqual({ ok: false, reason: "algorithm-not-allowed" });
    }
    const none = `${encodeBase64url(new TextEncoder().encode(JSON.stringify({ alg: "none", kid })))}.${encodeBase64url(new TextEncoder().encode('{"sub":"1"}'))}.`;
    expect((await issuer.verify(none)).ok).toBe(false);
  });
});

describe("the other asymmetric algorithm under one kid", () => {
  it("is refused: each key verifies only its own alg", async () => {
    const { issuer, store } = await setUp("EdDSA");
    const [stored] = await store.list();
    const ec = await generateSigningKey("ES256");
    const { importJWK } = await import("jose");
    const forged = await new SignJWT({ iss: ISSUER })
      .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: stored!.privateJwk.kid })
      .setSubject("1")
      .setIssuedAt(IAT)
      .setExpirationTime(IAT + 60)
      .sign(await importJWK(ec, "ES256"));
    expect(await issuer.verify(forged)).toEqual({ ok: false, reason: "algorithm-not-allowed" });
  });
});

describe("HS256 with an issuer configured", () => {
  it("sets iss and requires it; without one the token is the spec's, unchanged", async () => {
    const clock = () => T0;
    const withIssuer = createJwtIssuer({ secrets: { current: SECRET }, clock, issuer: ISSUER });
    const plain = createJwtIssuer({ secrets: { current: SECRET }, clock });
    const { token } = await withIssuer.issue(7);
    expect(parts(token).payload).toEqual({ sub: "7", iat: IAT, exp: IAT + 3600, iss: ISSUER });
    expect((await withIssuer.verify(token)).ok).toBe(true);
    const { token: plainToken } = await plain.issue(7);
    expect(parts(plainToken)).toEqual({
      header: { alg: "HS256", typ: "JWT" },
      payload: { sub: "7", iat: IAT, exp: IAT + 3600 },
    });
    expect(await withIssuer.verify(plainToken)).toEqual({ ok: false, reason: "invalid-claims" });
  });

  it("refuses an EdDSA token: HS256 allows HS256 alone", async () => {
    const { issuer } = await setUp("EdDSA");
    const { token } = await issuer.issue(1);
    const hs = createJwtIssuer({ secrets: { current: SECRET }, clock: () => T0 });
    expect(await hs.verify(token)).toEqual({ ok: false, reason: "algorithm-not-allowed" });
  });
});

describe("createJwtIssuer's configuration checks", () => {
  it("needs a key set of the same algorithm", async () => {
    const { keys } = await setUp("EdDSA");
    expect(() => createJwtIssuer({ algorithm: "ES256", keys })).toThrow(RangeError);
    expect(() => createJwtIssuer({ algorithm: "RS256" as "ES256", keys: keys })).toThrow(
      /unsupported JWT algorithm/,
    );
  });
});

describe("rotation", () => {
  it("signs with the new key; old tokens verify until the old key leaves the set", async () => {
    const { issuer, keys, store, time, clock } = await setUp("EdDSA");
    const old = await issuer.issue(1);
    const oldKid = parts(old.token).header.kid;
    time.now = T0 + 600_000;
    const rotated = await rotateSigningKey(store, "EdDSA", clock);
    await keys.refresh();
    const fresh = await issuer.issue(2);
    expect(parts(fresh.token).header.kid).toBe(rotated.privateJwk.kid);
    expect(rotated.privateJwk.kid).not.toBe(oldKid);
    expect((await issuer.verify(old.token)).ok).toBe(true);
    expect((await issuer.verify(fresh.token)).ok).toBe(true);
    expect((await keys.publicJwks()).keys.map((key) => key.kid)).toEqual([
      rotated.privateJwk.kid,
      oldKid,
    ]);
    // The old key verifies for a token lifetime (plus the 60 s refresh interval) after the
    // new key was made, then leaves the set.
    const leaves = rotated.createdAt + 3600_000 + 60_000;
    time.now = leaves;
    expect((await keys.publicJwks()).keys.map((key) => key.kid)).toEqual([
      rotated.privateJwk.kid,
      oldKid,
    ]);
    time.now = leaves + 1;
    expect((await keys.publicJwks()).keys.map((key) => key.kid)).toEqual([rotated.privateJwk.kid]);
    expect(await issuer.verify(old.token)).toEqual({ ok: false, reason: "unknown-key" });
  });

  it("is seen by another process's key set: an unknown kid reads the store again", async () => {
    const first = await setUp("ES256");
    const other = await keySet({ algorithm: "ES256", store: first.store, clock: first.clock });
    const otherIssuer = createJwtIssuer({
      algorithm: "ES256",
      keys: other,
      clock: first.clock,
      issuer: ISSUER,
    });
    first.time.now += 2000;
    await rotateSigningKey(first.store, "ES256", first.clock);
    await first.keys.refresh();
    const token = (await first.issuer.issue(3)).token;
    expect((await otherIssuer.verify(token)).ok).toBe(true);
  });

  it("retiring the current key makes a new one at the next read; the retired one verifies nothing", async () => {
    const { issuer, keys, store, time } = await setUp("EdDSA");
    const before = await issuer.issue(1);
    const kid = parts(before.token).header.kid as string;
    await store.retire(kid, T0 + 1000);
    time.now = T0 + 1000;
    await keys.refresh();
    const after = await issuer.issue(2);
    expect(parts(after.token).header.kid).not.toBe(kid);
    expect(await issuer.verify(before.token)).toEqual({ ok: false, reason: "unknown-key" });
    expect((await issuer.verify(after.token)).ok).toBe(true);
    expect((await store.list()).map((key) => key.generation)).toEqual([1, 2]);
  });
});

describe("keySet at first start", () => {
  it("makes one key when several start at once on an empty store", async () => {
    const store = new MemorySigningKeyStore();
    const sets = await Promise.all(
      Array.from({ length: 4 }, () => keySet({ algorithm: "EdDSA", store, clock: () => T0 })),
    );
    const kids = await Promise.all(sets.map(async (set) => (await set.signingKey()).kid));
    expect(new Set(kids).size).toBe(1);
    expect(await store.list()).toHaveLength(1);
  });

  it("makes a key of the configured algorithm when the current one is of another", async () => {
    const store = new MemorySigningKeyStore();
    await keySet({ algorithm: "EdDSA", store, clock: () => T0 });
    const es = await keySet({ algorithm: "ES256", store, clock: () => T0 });
    expect((await es.signingKey()).alg).toBe("ES256");
    expect((await store.list()).map((key) => key.privateJwk.alg)).toEqual(["EdDSA", "ES256"]);
  });

  it("needs keys or a store", async () => {
    await expect(keySet({ algorithm: "EdDSA" })).rejects.toThrow(RangeError);
  });
});
