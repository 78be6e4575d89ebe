import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeBase64,
  decodeBase64url,
  encodeBase64,
  encodeBase64url,
  portableEncoders,
} from "../src/base64.js";
import { EncodingError } from "../src/encoding-error.js";
import { decodeHex, encodeHex } from "../src/hex.js";

const withoutPadding = (text: string) => text.replace(/=+$/, "");

const codecs = [
  { name: "hex", encode: encodeHex, decode: decodeHex, canonical: (t: string) => t.toLowerCase() },
  { name: "base64", encode: encodeBase64, decode: decodeBase64, canonical: withoutPadding },
  {
    name: "base64url",
    encode: encodeBase64url,
    decode: decodeBase64url,
    canonical: withoutPadding,
  },
  // What Deno and Workers encode with (Node and Bun use Buffer).
  {
    name: "base64 (portable)",
    encode: portableEncoders.base64,
    decode: decodeBase64,
    canonical: withoutPadding,
  },
  {
    name: "base64url (portable)",
    encode: portableEncoders.base64url,
    decode: decodeBase64url,
    canonical: withoutPadding,
  },
];

describe("the portable encoders", () => {
  it("write what Buffer writes, byte for byte", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(portableEncoders.base64(bytes)).toBe(encodeBase64(bytes));
        expect(portableEncoders.base64url(bytes)).toBe(encodeBase64url(bytes));
      }),
    );
  });
});

describe.each(codecs)("$name", ({ encode, decode, canonical }) => {
  it("round-trips every byte string", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(decode(encode(bytes))).toEqual(bytes);
      }),
    );
  });

  it("accepts only canonical encodings and throws EncodingError for anything else", () => {
    const alphabetish = fc.string({
      unit: fc.constantFrom(..."0123456789abcdefABCDEF+/-_=Zz \n%é"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), alphabetish), (text) => {
        let bytes: Uint8Array;
        try {
          bytes = decode(text);
        } catch (error) {
          expect(error).toBeInstanceOf(EncodingError);
          return;
        }
        // Never silently truncated or reinterpreted: the input is exactly an encoding of the output.
        expect(canonical(encode(bytes))).toBe(canonical(text));
      }),
      { numRuns: 2000 },
    );
  });
});
