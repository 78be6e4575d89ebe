import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { constantTimeEqual, constantTimeEqualText } from "../src/constant-time.js";

describe("constantTimeEqual", () => {
  it("is true only for identical bytes", () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(), new Uint8Array())).toBe(true);
  });

  it("agrees with element-wise equality for any inputs", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        const same = a.length === b.length && a.every((byte, i) => byte === b[i]);
        expect(constantTimeEqual(a, b)).toBe(same);
        expect(constantTimeEqual(a, a.slice())).toBe(true);
      }),
    );
  });
});

describe("constantTimeEqualText", () => {
  it("compares texts exactly, including unicode and empty", () => {
    expect(constantTimeEqualText("s3cret", "s3cret")).toBe(true);
    expect(constantTimeEqualText("s3cret", "s3cre")).toBe(false);
    expect(constantTimeEqualText("é", "e\u0301")).toBe(false);
    expect(constantTimeEqualText("", "")).toBe(true);
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(constantTimeEqualText(a, b)).toBe(a === b);
      }),
    );
  });
});
