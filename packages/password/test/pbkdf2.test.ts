import { decodeHex, encodeHex, utf8 } from "@tessera/crypto";
import { describe, expect, it } from "vitest";
import { noblePbkdf2Sha256, pbkdf2Sha256, webCryptoPbkdf2Sha256 } from "../src/pbkdf2.js";
import rfc7914 from "./vectors/rfc7914-pbkdf2-hmac-sha256.json" with { type: "json" };

const implementations = [
  ["WebCrypto", webCryptoPbkdf2Sha256],
  ["@noble/hashes", noblePbkdf2Sha256],
] as const;

describe.each(implementations)("PBKDF2-HMAC-SHA256 on %s", (_name, derive) => {
  it.each(rfc7914.cases)("matches RFC 7914 §11: $name", async (vector) => {
    const derived = await derive(
      utf8(vector.password),
      utf8(vector.salt),
      vector.iterations,
      vector.byteLength,
    );
    expect(encodeHex(derived)).toBe(vector.derivedKeyHex);
  });

  it("gives a prefix of the longer output for a shorter length", async () => {
    const short = await derive(utf8("passwd"), utf8("salt"), 1, 32);
    expect(short).toEqual(decodeHex(rfc7914.cases[0]!.derivedKeyHex).subarray(0, 32));
  });
});

describe("pbkdf2Sha256", () => {
  it("is the native WebCrypto implementation on a runtime that has it", () => {
    expect(pbkdf2Sha256).toBe(webCryptoPbkdf2Sha256);
  });
});
