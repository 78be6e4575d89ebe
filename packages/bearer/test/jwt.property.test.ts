import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createJwtIssuer } from "../src/jwt.js";
import { handMadeJwt, SECRET, segment } from "./hand-made-jwt.js";

const T0 = Date.UTC(2025, 0, 1);
const issuer = createJwtIssuer({ secrets: { current: SECRET }, clock: () => T0 });
const validToken = (await issuer.issue(42)).token;

const base64urlCharacter = fc.constantFrom(
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
);
const base64urlText = fc.string({ unit: base64urlCharacter, maxLength: 200 });
/** Any character a header could carry, weighted towards those that mean something in a JWT. */
const tokenCharacter = fc.oneof(
  base64urlCharacter,
  fc.constantFrom(".", "=", "+", "/", " ", "\u0000", "é"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);

/** Resolves to the verdict; a throw or a rejection fails the property by itself. */
async function verdict(token: string) {
  return issuer.verify(token);
}

describe("verify on hostile input (properties)", () => {
  it("the valid token used below is accepted", async () => {
    expect(await verdict(validToken)).toEqual({
      ok: true,
      value: { subject: "42", expiresAt: T0 / 1000 + 3600, issuedAt: T0 / 1000 },
    });
  });

  it("never throws and never accepts an arbitrary string", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 300 }), async (token) => {
        expect((await verdict(token)).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("never accepts a JWT-shaped string of three base64url segments", async () => {
    await fc.assert(
      fc.asyncProperty(base64urlText, base64urlText, base64urlText, async (a, b, c) => {
        expect((await verdict(`${a}.${b}.${c}`)).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("never accepts a forged HS256 token: right header, any claims, guessed signature", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.jsonValue()),
        base64urlText,
        async (claims, signature) => {
          const token = `${segment({ alg: "HS256", typ: "JWT" })}.${segment(claims)}.${signature}`;
          expect((await verdict(token)).ok).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never accepts a mutation of a valid token (replace, truncate, insert, append)", async () => {
    const position = fc.nat({ max: validToken.length - 1 });
    const mutation = fc.oneof(
      fc
        .tuple(position, tokenCharacter)
        .filter(([at, character]) => validToken[at] !== character)
        .map(([at, character]) => validToken.slice(0, at) + character + validToken.slice(at + 1)),
      position.map((length) => validToken.slice(0, length)),
      fc
        .tuple(position, fc.string({ unit: tokenCharacter, minLength: 1, maxLength: 4 }))
        .map(([at, text]) => validToken.slice(0, at) + text + validToken.slice(at)),
      fc
        .string({ unit: tokenCharacter, minLength: 1, maxLength: 8 })
        .map((text) => validToken + text),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async (token) => {
        expect((await verdict(token)).ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts every correctly MACed HS256 token with valid claims, whatever else it carries", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.string().filter((name) => !["sub", "iat", "exp", "nbf", "__proto__"].includes(name)),
          fc.jsonValue(),
        ),
        fc.integer({ min: 1, max: 2 ** 40 }).map(String),
        async (extraClaims, subject) => {
          const claims = { ...extraClaims, sub: subject, iat: T0 / 1000, exp: T0 / 1000 + 1 };
          expect(await verdict(handMadeJwt({ alg: "HS256" }, claims))).toEqual({
            ok: true,
            value: { subject, expiresAt: T0 / 1000 + 1, issuedAt: T0 / 1000 },
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
