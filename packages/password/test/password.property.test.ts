import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPasswordPolicy, hashPassword, verifyPassword } from "../src/index.js";

// Low iteration count so many runs stay fast; the default path is covered by example tests.
const FAST = { iterations: 1000 };
const anyText = fc.string({ unit: "binary", maxLength: 64 });

describe("password properties", () => {
  it("hash then verify accepts the same password", async () => {
    await fc.assert(
      fc.asyncProperty(anyText, async (password) => {
        const digest = await hashPassword(password, FAST);
        expect(await verifyPassword(password, digest, FAST)).toEqual({
          valid: true,
          needsRehash: false,
        });
      }),
      { numRuns: 30 },
    );
  });

  it("hash then verify refuses any other password", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(anyText, anyText).filter(([a, b]) => a !== b),
        async ([password, other]) => {
          const digest = await hashPassword(password, FAST);
          expect(await verifyPassword(other, digest, FAST)).toEqual({
            valid: false,
            needsRehash: false,
          });
        },
      ),
      { numRuns: 30 },
    );
  });

  const digestLike = fc
    .tuple(
      fc.constantFrom("pbkdf2_sha256", "pbkdf2_sha1", "argon2", ""),
      fc.oneof(fc.integer().map(String), fc.string()),
      fc.string({ unit: "binary" }),
      fc.oneof(fc.base64String(), fc.string()),
    )
    .map((parts) => parts.join("$"));

  it("verifyPassword never throws and refuses arbitrary digests", async () => {
    await fc.assert(
      fc.asyncProperty(
        anyText,
        fc.oneof(fc.string({ unit: "binary" }), digestLike),
        async (p, d) => {
          expect(await verifyPassword(p, d, FAST)).toEqual({ valid: false, needsRehash: false });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the policy passes exactly the passwords of 8 to 128 code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (password) => {
        const length = Array.from(password).length;
        expect(checkPasswordPolicy(password).length === 0).toBe(length >= 8 && length <= 128);
      }),
    );
  });
});
