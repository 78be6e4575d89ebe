import { describe, expect, it } from "vitest";
import { digestBackend, nobleBackend } from "../src/digest-backend.js";
import { hmacSha256, sha256, sha256Hex } from "../src/hash.js";
import { decodeHex, encodeHex } from "../src/hex.js";
import { utf8 } from "../src/utf8.js";
import sha256Vectors from "./vectors/fips180-sha256.json";
import hmacVectors from "./vectors/rfc4231-hmac-sha256.json";

const backends = [digestBackend, nobleBackend];

describe.each(backends)("$name backend", (backend) => {
  it.each(sha256Vectors.cases)("SHA-256 FIPS 180 $name", (vector) => {
    const message = utf8(vector.message.repeat(vector.repeat));
    expect(encodeHex(backend.sha256(message))).toBe(vector.digestHex);
    expect(backend.sha256Hex(message)).toBe(vector.digestHex);
    expect(backend.sha256Hex(vector.message.repeat(vector.repeat))).toBe(vector.digestHex);
  });

  it.each(hmacVectors.cases)("HMAC-SHA256 RFC 4231 $name", (vector) => {
    const data = decodeHex(vector.dataHex);
    const mac = backend.hmacSha256(decodeHex(vector.keyHex), [data]);
    expect(encodeHex(mac).slice(0, vector.macHex.length)).toBe(vector.macHex);
    // The same data in several parts gives the same MAC.
    const split = backend.hmacSha256(decodeHex(vector.keyHex), [
      data.subarray(0, 3),
      data.subarray(3),
    ]);
    expect(split).toEqual(mac);
  });
});

describe("hash functions", () => {
  it("uses Node's native backend on Node", () => {
    expect(digestBackend.name).toBe("node");
  });

  it("hashes text as its UTF-8 bytes", () => {
    expect(sha256Hex("abc")).toBe(sha256Vectors.cases[1]!.digestHex);
    expect(sha256("é")).toEqual(sha256(new Uint8Array([0xc3, 0xa9])));
    expect(encodeHex(hmacSha256("Jefe", "what do ya want for nothing?"))).toBe(
      hmacVectors.cases[1]!.macHex,
    );
    expect(encodeHex(hmacSha256("Jefe", "what do ya ", utf8("want for "), "nothing?"))).toBe(
      hmacVectors.cases[1]!.macHex,
    );
    for (const backend of backends) {
      expect(encodeHex(backend.hmacSha256(utf8("k"), ["é", "ü"]))).toBe(
        encodeHex(backend.hmacSha256(utf8("k"), [utf8("éü")])),
      );
    }
  });
});
