// Node's synchronous AES-GCM and WebCrypto's give the same sealed bytes layout: each opens
// what the other sealed, and both refuse a changed byte, another context or another key.
import { describe, expect, it } from "vitest";
import { aeadBackend, webCryptoAead } from "../src/aead-backend.js";
import { decodeHex, encodeHex } from "../src/hex.js";
import { utf8 } from "../src/utf8.js";

// NIST GCM test vector (gcmEncryptExtIV256.rsp, Count 0 of Keylen 256, IVlen 96, PTlen 128,
// AADlen 128, Taglen 128).
const VECTOR = {
  key: "92e11dcdaa866f5ce790fd24501f92509aacf4cb8b1339d50c9c1240935dd08b",
  iv: "ac93a1a6145299bde902f21a",
  plaintext: "2d71bcfa914e4ac045b2aa60955fad24",
  aad: "1e0889016f67601c8ebea4943bc23ad6",
  ciphertext: "8995ae2e6df3dbf96fac7b7137bae67f",
  tag: "eca5aa77d51d4a0a14d9c51e1da474ab",
};

describe("AES-256-GCM backends", () => {
  it("uses Node's synchronous one on Node", () => {
    expect(aeadBackend.name).toBe("node");
  });

  it.each([aeadBackend, webCryptoAead])("$name matches the NIST vector", async (backend) => {
    const [key, iv, aad] = [decodeHex(VECTOR.key), decodeHex(VECTOR.iv), decodeHex(VECTOR.aad)];
    const sealed = await backend.seal(key, iv, decodeHex(VECTOR.plaintext), aad);
    expect(encodeHex(sealed)).toBe(VECTOR.ciphertext + VECTOR.tag);
    expect(encodeHex((await backend.open(key, iv, sealed, aad))!)).toBe(VECTOR.plaintext);
  });

  it("open what the other sealed, and refuse a change, a context or a key", async () => {
    const key = new Uint8Array(32).fill(7);
    const otherKey = new Uint8Array(32).fill(8);
    const iv = new Uint8Array(12).fill(1);
    const context = utf8("_app_session");
    for (const [sealer, opener] of [
      [aeadBackend, webCryptoAead],
      [webCryptoAead, aeadBackend],
    ] as const) {
      const sealed = await sealer.seal(key, iv, utf8('{"user_id":7}'), context);
      expect(await opener.open(key, iv, sealed, context)).toEqual(utf8('{"user_id":7}'));
      const changed = sealed.slice();
      changed[0]! ^= 1;
      expect(await opener.open(key, iv, changed, context)).toBeUndefined();
      expect(await opener.open(key, iv, sealed, utf8("other"))).toBeUndefined();
      expect(await opener.open(otherKey, iv, sealed, context)).toBeUndefined();
      expect(await opener.open(key, iv, sealed.subarray(0, 10), context)).toBeUndefined();
    }
  });
});
