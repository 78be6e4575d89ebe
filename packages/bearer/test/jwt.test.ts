import {
  decodeBase64url,
  deriveKey,
  encodeBase64url,
  randomBytes,
  randomToken,
} from "@tessera/crypto";
import { generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  createJwtIssuer,
  JWT_LIFETIME_SECONDS,
  MAXIMUM_JWT_LENGTH,
  VERIFIED_TOKEN_MEMORY_SIZE,
} from "../src/jwt.js";
import { handMadeJwt, jwtKey, OLD_SECRET, SECRET, segment } from "./hand-made-jwt.js";

// 2025-01-01T00:00:00Z, a whole second, so issue time and token time line up exactly.
const T0 = Date.UTC(2025, 0, 1);
const IAT = T0 / 1000;

function issuerAt(
  now: number,
  secrets: { current: string; previous?: string } = { current: SECRET },
) {
  return createJwtIssuer({ secrets, clock: () => now });
}

function parts(token: string): { header: unknown; payload: unknown } {
  const [header, payload] = token.split(".");
  const decode = (text: string) => JSON.parse(new TextDecoder().decode(decodeBase64url(text)));
  return { header: decode(header!), payload: decode(payload!) };
}

const validClaims = { sub: "7", iat: IAT, exp: IAT + 3600 };

describe("issue and verify", () => {
  it("round-trips the user id with the documented claims and header", async () => {
    const issuer = issuerAt(T0);
    const issued = await issuer.issue(42);
    expect(issued.expiresIn).toBe(3600);
    expect(parts(issued.token)).toEqual({
      header: { alg: "HS256", typ: "JWT" },
      payload: { sub: "42", iat: IAT, exp: IAT + 3600 },
    });
    expect(await issuer.verify(issued.token)).toEqual({
      ok: true,
      value: { subject: "42", expiresAt: IAT + 3600, issuedAt: IAT },
    });
  });

  it("signs with the key derived from SECRET_KEY_BASE under the JWT label", async () => {
    const issued = await issuerAt(T0).issue("7");
    // Same header and claims, signed independently of jose: the tokens must be identical.
    expect(issued.token).toBe(handMadeJwt({ alg: "HS256", typ: "JWT" }, validClaims));
  });

  it("counts issue time in whole seconds", async () => {
    const issued = await issuerAt(T0 + 999).issue(1);
    expect(parts(issued.token).payload).toEqual({ sub: "1", iat: IAT, exp: IAT + 3600 });
  });

  it("accepts a token until the last millisecond of its hour and refuses it at 3600 s", async () => {
    const { token } = await issuerAt(T0).issue(1);
    expect((await issuerAt(T0 + 3_599_999).verify(token)).ok).toBe(true);
    expect(await issuerAt(T0 + 3_600_000).verify(token)).toEqual({ ok: false, reason: "expired" });
    expect(await issuerAt(T0 + 86_400_000).verify(token)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("checks the expiry of a remembered token again on every verification", async () => {
    let now = T0;
    const issuer = createJwtIssuer({ secrets: { current: SECRET }, clock: () => now });
    const { token } = await issuer.issue(1);
    expect((await issuer.verify(token)).ok).toBe(true);
    now = T0 + 3_599_999;
    expect((await issuer.verify(token)).ok).toBe(true);
    now = T0 + 3_600_000;
    expect(await issuer.verify(token)).toEqual({ ok: false, reason: "expired" });
    now = T0;
    // Forgotten once expired: going back in time does not revive it from memory, only jose could.
    expect((await issuer.verify(token)).ok).toBe(true);
  });

  it("keeps verifying correctly past its memory's capacity", async () => {
    const issuer = issuerAt(T0);
    const tokens = await Promise.all(
      Array.from({ length: VERIFIED_TOKEN_MEMORY_SIZE + 10 }, (_, index) =>
        issuer.issue(index + 1),
      ),
    );
    for (const { token } of tokens) expect((await issuer.verify(token)).ok).toBe(true);
    const first = tokens[0]!.token;
    expect(await issuer.verify(first)).toEqual({
      ok: true,
      value: { subject: "1", expiresAt: IAT + 3600, issuedAt: IAT },
    });
    expect((await issuer.verify(`${first.slice(0, -2)}AA`)).ok).toBe(false);
  });

  it("honours a configured lifetime and refuses nonsensical ones", async () => {
    const issuer = createJwtIssuer({
      secrets: { current: SECRET },
      clock: () => T0,
      lifetimeSeconds: 60,
    });
    const issued = await issuer.issue(1);
    expect(issued.expiresIn).toBe(60);
    expect(parts(issued.token).payload).toMatchObject({ exp: IAT + 60 });
    for (const lifetimeSeconds of [0, -1, 1.5, Number.NaN]) {
      expect(() => createJwtIssuer({ secrets: { current: SECRET }, lifetimeSeconds })).toThrow(
        RangeError,
      );
    }
    expect(JWT_LIFETIME_SECONDS).toBe(3600);
  });

  it("refuses a short SECRET_KEY_BASE and an empty subject", async () => {
    expect(() => createJwtIssuer({ secrets: { current: "too short" } })).toThrow(RangeError);
    await expect(issuerAt(T0).issue("")).rejects.toThrow(RangeError);
  });
});

describe("rotation", () => {
  it("verifies tokens of the previous secret while it is set, and only then", async () => {
    const beforeRotation = await issuerAt(T0, { current: OLD_SECRET }).issue(5);
    const rotated = issuerAt(T0, { current: SECRET, previous: OLD_SECRET });
    expect(await rotated.verify(beforeRotation.token)).toEqual({
      ok: true,
      value: { subject: "5", expiresAt: IAT + 3600, issuedAt: IAT },
    });
    expect(await issuerAt(T0, { current: SECRET }).verify(beforeRotation.token)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it("signs with the current secret after a rotation", async () => {
    const afterRotation = await issuerAt(T0, { current: SECRET, previous: OLD_SECRET }).issue(5);
    expect((await issuerAt(T0, { current: SECRET }).verify(afterRotation.token)).ok).toBe(true);
    expect(await issuerAt(T0, { current: OLD_SECRET }).verify(afterRotation.token)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it("reports an expired token of the previous secret as expired", async () => {
    const old = await issuerAt(T0, { current: OLD_SECRET }).issue(5);
    const later = issuerAt(T0 + 3_600_000, { current: SECRET, previous: OLD_SECRET });
    expect(await later.verify(old.token)).toEqual({ ok: false, reason: "expired" });
  });
});

describe("hostile tokens", () => {
  const verifier = issuerAt(T0);

  async function reasonFor(token: string) {
    const result = await verifier.verify(token);
    return result.ok ? "accepted" : result.reason;
  }

  it("refuses alg none, with and without a signature", async () => {
    expect(await reasonFor(handMadeJwt({ alg: "none" }, validClaims, "unsigned"))).toBe(
      "malformed-token", // no third segment at all
    );
    expect(await reasonFor(handMadeJwt({ alg: "none", typ: "JWT" }, validClaims))).toBe(
      "algorithm-not-allowed",
    );
    expect(await reasonFor(handMadeJwt({ alg: "None" }, validClaims))).toBe(
      "algorithm-not-allowed",
    );
  });

  it("refuses HS384 and HS512 tokens MACed with the very same key", async () => {
    for (const [alg, hash] of [
      ["HS384", "sha384"],
      ["HS512", "sha512"],
    ] as const) {
      expect(await reasonFor(handMadeJwt({ alg }, validClaims, { key: jwtKey, hash }))).toBe(
        "algorithm-not-allowed",
      );
    }
    const joseHs512 = await new SignJWT(validClaims)
      .setProtectedHeader({ alg: "HS512" })
      .sign(deriveKey(SECRET, "tessera jwt hs256", 64));
    expect(await reasonFor(joseHs512)).toBe("algorithm-not-allowed");
  });

  it("refuses RS256, whether really RSA-signed or HMAC-signed with our key (alg confusion)", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const rsaSigned = await new SignJWT(validClaims)
      .setProtectedHeader({ alg: "RS256" })
      .sign(privateKey);
    expect(await reasonFor(rsaSigned)).toBe("algorithm-not-allowed");
    expect(await reasonFor(handMadeJwt({ alg: "RS256" }, validClaims))).toBe(
      "algorithm-not-allowed",
    );
  });

  it("refuses a token signed with a key derived under another label", async () => {
    const cookieKey = deriveKey(SECRET, "session cookie");
    expect(
      await reasonFor(
        handMadeJwt({ alg: "HS256" }, validClaims, { key: cookieKey, hash: "sha256" }),
      ),
    ).toBe("bad-signature");
  });

  it("refuses rearranged, truncated and extended tokens", async () => {
    const { token } = await verifier.issue(7);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    expect(await reasonFor(`${payload}.${header}.${signature}`)).toBe("malformed-token");
    expect(await reasonFor(`${header}.${payload}`)).toBe("malformed-token");
    expect(await reasonFor(`${header}.${payload}.`)).toBe("malformed-token");
    expect(await reasonFor(`${header}.${payload}.${signature}.${signature}`)).toBe(
      "malformed-token",
    );
    expect(await reasonFor(`${header}.${payload}.${signature.slice(0, 40)}`)).toBe("bad-signature");
    expect(await reasonFor(`${header}.${payload}.${signature.slice(0, 8)}`)).toBe("bad-signature");
    expect(await reasonFor(`${header}.${payload}.${signature}AAAA`)).toBe("bad-signature");
  });

  it("refuses other spellings of a valid signature (padding, stray low bits)", async () => {
    const { token } = await verifier.issue(7);
    expect(await reasonFor(`${token}=`)).toBe("malformed-token");
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // The last of 43 characters carries 4 bits of the MAC and 2 bits that must be zero.
    const last = alphabet.indexOf(token.at(-1)!);
    for (const strayBits of [1, 2, 3]) {
      const respelled = `${token.slice(0, -1)}${alphabet[last ^ strayBits]}`;
      expect(await reasonFor(respelled)).toBe("malformed-token");
    }
  });

  it("refuses garbage: empty, random bytes, bad base64, non-JSON or non-object parts", async () => {
    const signature = encodeBase64url(randomBytes(32));
    const cases = [
      "",
      ".",
      "..",
      new TextDecoder("latin1").decode(randomBytes(64)),
      encodeBase64url(randomBytes(96)),
      `${randomToken()}.${randomToken()}.${randomToken()}`,
      `${segment({ alg: "HS256" })}.${segment(validClaims)}.${signature.slice(0, -1)}+`,
      `e30.e30.${"!".repeat(43)}`,
      `${segment("not json")}.${segment(validClaims)}.${signature}`,
      `${segment("[]")}.${segment(validClaims)}.${signature}`,
      `${segment({ alg: "HS256" })} .${segment(validClaims)}.${signature}`,
      `${segment({ alg: "HS256" })}.${segment(validClaims)}é.${signature}`,
    ];
    for (const token of cases) expect(await reasonFor(token), token).toBe("malformed-token");
  });

  it("refuses a correctly MACed token over the length cap, unread", async () => {
    const padded = { ...validClaims, padding: "x".repeat(MAXIMUM_JWT_LENGTH) };
    expect(await reasonFor(handMadeJwt({ alg: "HS256" }, padded))).toBe("malformed-token");
    const justUnder = { ...validClaims, padding: "x".repeat(MAXIMUM_JWT_LENGTH / 2) };
    expect(await reasonFor(handMadeJwt({ alg: "HS256" }, justUnder))).toBe("accepted");
  });

  it("refuses a correctly MACed token whose payload is not a JSON object", async () => {
    expect(await reasonFor(handMadeJwt({ alg: "HS256" }, "not json"))).toBe("malformed-token");
    expect(await reasonFor(handMadeJwt({ alg: "HS256" }, [validClaims]))).toBe("malformed-token");
  });

  it("refuses correctly MACed headers it does not understand (crit, unencoded payload)", async () => {
    expect(await reasonFor(handMadeJwt({ alg: "HS256", crit: ["exp"], exp: 1 }, validClaims))).toBe(
      "malformed-token",
    );
    expect(
      await reasonFor(handMadeJwt({ alg: "HS256", crit: ["b64"], b64: false }, validClaims)),
    ).toBe("malformed-token");
  });

  it("refuses correctly MACed tokens with missing or ill-typed claims", async () => {
    const { sub: _sub, ...withoutSub } = validClaims;
    const { exp: _exp, ...withoutExp } = validClaims;
    const { iat: _iat, ...withoutIat } = validClaims;
    const payloads = [
      withoutSub,
      withoutExp,
      withoutIat,
      { ...validClaims, sub: "" },
      { ...validClaims, sub: 7 },
      { ...validClaims, sub: null },
      { ...validClaims, exp: String(IAT + 3600) },
      { ...validClaims, iat: "now" },
      { ...validClaims, nbf: IAT + 60 },
    ];
    for (const payload of payloads) {
      expect(await reasonFor(handMadeJwt({ alg: "HS256" }, payload))).toBe("invalid-claims");
    }
  });

  it("accepts a hand-made token with the same claims, proving the cases above differ only as stated", async () => {
    expect(await verifier.verify(handMadeJwt({ alg: "HS256" }, validClaims))).toEqual({
      ok: true,
      value: { subject: "7", expiresAt: IAT + 3600, issuedAt: IAT },
    });
  });
});

describe("the sign-in a token was issued for (auth_time, amr)", () => {
  const signIn = { at: T0 - 5_000, factors: ["password", "totp"] };

  it("is carried in the claims and read back by verify", async () => {
    const issuer = issuerAt(T0);
    const { token } = await issuer.issue(42, signIn);
    expect(parts(token).payload).toEqual({
      sub: "42",
      iat: IAT,
      exp: IAT + 3600,
      auth_time: IAT - 5,
      amr: ["password", "totp"],
    });
    const verified = await issuer.verify(token);
    expect(verified).toEqual({
      ok: true,
      value: {
        subject: "42",
        expiresAt: IAT + 3600,
        issuedAt: IAT,
        authentication: { at: T0 - 5_000, factors: ["password", "totp"] },
      },
    });
  });

  it("is refused at issue when the factors are not 1 to 3 lower-case names", async () => {
    for (const factors of [
      [],
      ["a", "b", "c", "d"],
      ["Password"],
      ["pass word"],
      ["x".repeat(33)],
    ]) {
      await expect(issuerAt(T0).issue(1, { at: T0, factors })).rejects.toThrow(RangeError);
    }
  });

  it("makes a token invalid when the claims are malformed, even under the right key", async () => {
    const malformed = [
      { ...validClaims, amr: ["password"] },
      { ...validClaims, auth_time: IAT },
      { ...validClaims, auth_time: IAT + 1, amr: ["password"] },
      { ...validClaims, auth_time: "then", amr: ["password"] },
      { ...validClaims, auth_time: IAT, amr: "password" },
      { ...validClaims, auth_time: IAT, amr: [1] },
    ];
    for (const claims of malformed) {
      const outcome = await issuerAt(T0).verify(handMadeJwt({ alg: "HS256", typ: "JWT" }, claims));
      expect(outcome, JSON.stringify(claims)).toEqual({ ok: false, reason: "invalid-claims" });
    }
  });
});

describe("a token acting for its user (act)", () => {
  const acting = { at: T0, factors: ["impersonation"], actor: "7" };

  it("names the actor in act.sub, lasts at most an hour, and is read back", async () => {
    const issuer = createJwtIssuer({
      secrets: { current: SECRET },
      clock: () => T0,
      lifetimeSeconds: 86_400,
    });
    const { token, expiresIn } = await issuer.issue(42, acting);
    expect(expiresIn).toBe(3600);
    expect(parts(token).payload).toEqual({
      sub: "42",
      iat: IAT,
      exp: IAT + 3600,
      auth_time: IAT,
      amr: ["impersonation"],
      act: { sub: "7" },
    });
    expect(await issuer.verify(token)).toMatchObject({
      ok: true,
      value: { authentication: { at: T0, factors: ["impersonation"], actor: "7" } },
    });
    // Without an actor, the configured lifetime stands.
    expect((await issuer.issue(42, { at: T0, factors: ["password"] })).expiresIn).toBe(86_400);
  });

  it("is refused at issue for an actor that is not a user id", async () => {
    for (const actor of ["", "0", "07", "ada", "1".repeat(17)]) {
      await expect(issuerAt(T0).issue(1, { ...acting, actor })).rejects.toThrow(RangeError);
    }
  });

  it("is invalid when act is malformed, alone, or on a token of more than an hour", async () => {
    const signIn = { auth_time: IAT, amr: ["impersonation"] };
    const malformed = [
      { ...validClaims, act: { sub: "7" } },
      { ...validClaims, ...signIn, act: "7" },
      { ...validClaims, ...signIn, act: { sub: 7 } },
      { ...validClaims, ...signIn, act: { sub: "7", iss: "x" } },
      { ...validClaims, ...signIn, act: { sub: "x" } },
      { ...validClaims, ...signIn, act: [] },
      { ...validClaims, ...signIn, act: null },
      { ...validClaims, ...signIn, act: { sub: "7" }, exp: IAT + 3601 },
    ];
    for (const claims of malformed) {
      const outcome = await issuerAt(T0).verify(handMadeJwt({ alg: "HS256", typ: "JWT" }, claims));
      expect(outcome, JSON.stringify(claims)).toEqual({ ok: false, reason: "invalid-claims" });
    }
    const fine = { ...validClaims, ...signIn, act: { sub: "7" }, exp: IAT + 3600 };
    expect(
      await issuerAt(T0).verify(handMadeJwt({ alg: "HS256", typ: "JWT" }, fine)),
    ).toMatchObject({ ok: true });
  });
});
