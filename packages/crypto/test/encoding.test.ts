import { describe, expect, it } from "vitest";
import { decodeBase64, decodeBase64url, encodeBase64, encodeBase64url } from "../src/base64.js";
import { EncodingError } from "../src/encoding-error.js";
import { decodeHex, encodeHex } from "../src/hex.js";
import { utf8 } from "../src/utf8.js";

// RFC 4648 §10 test vectors.
const rfc4648 = [
  ["", ""],
  ["f", "Zg=="],
  ["fo", "Zm8="],
  ["foo", "Zm9v"],
  ["foob", "Zm9vYg=="],
  ["fooba", "Zm9vYmE="],
  ["foobar", "Zm9vYmFy"],
] as const;

describe("base64", () => {
  it.each(rfc4648)("encodes %j as %j (RFC 4648 §10)", (plain, encoded) => {
    expect(encodeBase64(utf8(plain))).toBe(encoded);
    expect(decodeBase64(encoded)).toEqual(utf8(plain));
    expect(decodeBase64(encoded.replace(/=+$/, ""))).toEqual(utf8(plain));
    expect(encodeBase64url(utf8(plain))).toBe(encoded.replace(/=+$/, ""));
  });

  it("uses - and _ in the URL-safe alphabet and + and / in the standard one", () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf]);
    expect(encodeBase64(bytes)).toBe("+/+/");
    expect(encodeBase64url(bytes)).toBe("-_-_");
    expect(decodeBase64url("-_-_")).toEqual(bytes);
  });

  it.each([
    ["a character outside the alphabet", "Zm9v!"],
    ["the other alphabet", "-_-_"],
    ["whitespace", "Zm9v Zg=="],
    ["a newline", "Zm9v\nYg=="],
    ["an impossible length", "Zm9vY"],
    ["padding in the middle", "Zg==Zg=="],
    ["too much padding", "Zg==="],
    ["non-zero trailing bits", "Zh=="],
    ["non-ASCII", "Zm9vä"],
  ])("rejects %s with an EncodingError", (_, text) => {
    expect(() => decodeBase64(text)).toThrow(EncodingError);
  });

  it("rejects the standard alphabet in base64url", () => {
    expect(() => decodeBase64url("+/+/")).toThrow(EncodingError);
  });
});

describe("hex", () => {
  it("encodes lowercase and decodes either case", () => {
    expect(encodeHex(new Uint8Array([0, 15, 16, 255]))).toBe("000f10ff");
    expect(decodeHex("000F10Ff")).toEqual(new Uint8Array([0, 15, 16, 255]));
  });

  it.each([
    ["odd length", "abc"],
    ["non-hex digit", "zz"],
    ["sign", "-1"],
    ["space", "0 "],
  ])("rejects %s", (_, text) => {
    expect(() => decodeHex(text)).toThrow(EncodingError);
  });
});
