import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openPayload, sealPayload } from "../src/authenticated-encryption.js";
import { decodeBase64url, encodeBase64url } from "../src/base64.js";
import { deriveKey } from "../src/key-derivation.js";
import { deriveKeyRing } from "../src/key-ring.js";

const secret = "s".repeat(64);
const key = deriveKey(secret, "cookie");
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("sealPayload / openPayload", () => {
  it("round-trips a payload and never repeats a sealed text", async () => {
    const sealed = await sealPayload(key, '{"user_id":7}', "_app_session");
    const again = await sealPayload(key, '{"user_id":7}', "_app_session");
    expect(sealed).not.toBe(again);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    const opened = await openPayload(key, sealed, "_app_session");
    expect(opened.ok && text(opened.value)).toBe('{"user_id":7}');
  });

  it("round-trips arbitrary payloads", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 500 }), fc.string(), async (payload, context) => {
        const opened = await openPayload(key, await sealPayload(key, payload, context), context);
        expect(opened).toEqual({ ok: true, value: payload });
      }),
      { numRuns: 100 },
    );
  });

  it("refuses every single-bit change of the sealed text", async () => {
    const sealed = decodeBase64url(await sealPayload(key, "user 7"));
    for (let bit = 0; bit < sealed.length * 8; bit++) {
      const tampered = sealed.slice();
      tampered[bit >> 3]! ^= 1 << (bit & 7);
      const opened = await openPayload(key, encodeBase64url(tampered));
      expect(opened.ok).toBe(false);
    }
  });

  it("refuses truncated, foreign, empty, oversized and garbage texts as failures, not throws", async () => {
    const sealed = await sealPayload(key, "user 7", "ctx");
    const foreignKey = deriveKey(secret, "another purpose");
    expect(await openPayload(key, sealed.slice(0, -1), "ctx")).toEqual({
      ok: false,
      reason: expect.any(String),
    });
    expect(await openPayload(key, sealed.slice(0, 20), "ctx")).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(await openPayload(foreignKey, sealed, "ctx")).toEqual({
      ok: false,
      reason: "not-authentic",
    });
    expect(await openPayload(key, sealed, "other context")).toEqual({
      ok: false,
      reason: "not-authentic",
    });
    expect(await openPayload(key, "", "ctx")).toEqual({ ok: false, reason: "malformed" });
    expect(await openPayload(key, "%%%", "ctx")).toEqual({ ok: false, reason: "malformed" });
    expect(await openPayload(key, "A".repeat(10_000), "ctx")).toEqual({
      ok: false,
      reason: "malformed",
    });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (garbage) => {
        expect((await openPayload(key, garbage)).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("opens texts sealed under the previous secret through the key ring", async () => {
    const previous = "p".repeat(64);
    const oldKey = deriveKey(previous, "cookie");
    const sealedBeforeRotation = await sealPayload(oldKey, "user 7");
    const rotated = deriveKeyRing({ current: secret, previous }, "cookie");
    const opened = await openPayload(rotated, sealedBeforeRotation);
    expect(opened.ok && text(opened.value)).toBe("user 7");
    expect(
      (await openPayload(deriveKeyRing({ current: secret }, "cookie"), sealedBeforeRotation)).ok,
    ).toBe(false);
  });
});
