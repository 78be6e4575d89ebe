import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeHex } from "../src/hex.js";
import { deriveKey } from "../src/key-derivation.js";
import { deriveKeyRing } from "../src/key-ring.js";

const secret = "a".repeat(64);

describe("deriveKey", () => {
  it("matches HKDF-SHA256 computed independently by WebCrypto", async () => {
    const ikm = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      "HKDF",
      false,
      ["deriveBits"],
    );
    const expected = await crypto.subtle.deriveBits(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: new TextEncoder().encode("tessera key derivation v1"),
        info: new TextEncoder().encode("cookie"),
      },
      ikm,
      256,
    );
    expect(encodeHex(deriveKey(secret, "cookie"))).toBe(encodeHex(new Uint8Array(expected)));
  });

  it("gives the same key for the same secret and label, independent keys otherwise", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 32, maxLength: 80 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        (secretKeyBase, label, otherLabel) => {
          expect(deriveKey(secretKeyBase, label)).toEqual(deriveKey(secretKeyBase, label));
          if (label !== otherLabel) {
            expect(deriveKey(secretKeyBase, label)).not.toEqual(
              deriveKey(secretKeyBase, otherLabel),
            );
          }
          expect(deriveKey(secretKeyBase, label)).not.toEqual(
            deriveKey(`${secretKeyBase}x`, label),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("gives 256-bit keys by default and other lengths on request", () => {
    expect(deriveKey(secret, "jwt")).toHaveLength(32);
    expect(deriveKey(secret, "jwt", 64)).toHaveLength(64);
  });

  it("refuses short secrets and empty labels", () => {
    expect(() => deriveKey("short", "jwt")).toThrow(
      "SECRET_KEY_BASE must be at least 32 characters",
    );
    expect(() => deriveKey(secret, "")).toThrow("label must not be empty");
  });
});

describe("deriveKeyRing", () => {
  it("puts the current key first and the previous secret's key after it", () => {
    const previous = "b".repeat(64);
    const ring = deriveKeyRing({ current: secret, previous }, "cookie");
    expect(ring.current).toEqual(deriveKey(secret, "cookie"));
    expect(ring.all).toEqual([deriveKey(secret, "cookie"), deriveKey(previous, "cookie")]);
    expect(deriveKeyRing({ current: secret }, "cookie").all).toHaveLength(1);
    expect(deriveKeyRing({ current: secret, previous: "" }, "cookie").all).toHaveLength(1);
  });

  it("names the setting when the secret is not there: process.env.SECRET_KEY_BASE! unset", () => {
    const unset = process.env.TESSERA_NEVER_SET;
    const message =
      "SECRET_KEY_BASE is not set: pass a secret of at least 32 characters (try: openssl rand -hex 64)";
    expect(() => deriveKeyRing(unset as unknown as { current: string }, "cookie")).toThrow(
      new TypeError(message),
    );
    expect(() => deriveKeyRing({ current: unset! }, "cookie")).toThrow(new TypeError(message));
    expect(() => deriveKey(unset!, "cookie")).toThrow(new TypeError(message));
  });
});
