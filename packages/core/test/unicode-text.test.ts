import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unstorableText } from "../src/index.js";

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

describe("unstorableText", () => {
  it("names a NUL and an unpaired surrogate half, wherever it stands", () => {
    for (const text of ["\u0000", "a\u0000", "\u0000a", "a\u0000b"]) {
      expect(unstorableText(text)).toBe("NUL character in string");
    }
    for (const text of ["\ud800", "\udc00", "x\ud83d", "\udc00\ud800", "a\ud800b"]) {
      expect(unstorableText(text)).toBe("lone surrogate in string");
    }
  });

  it("names a NUL first when text holds both", () => {
    expect(unstorableText("\u0000\ud800")).toBe("NUL character in string");
    expect(unstorableText("\ud800\u0000")).toBe("NUL character in string");
  });

  it("passes surrogate pairs, other control characters and the empty string", () => {
    for (const text of [
      "",
      "😀",
      "\ud83d\ude00",
      "\u0001\u001f\u007f\u0085",
      "\uFFFD",
      "\\u0000",
    ]) {
      expect(unstorableText(text)).toBeUndefined();
    }
  });

  it("passes exactly the text that is well-formed Unicode without NUL (property)", () => {
    fc.assert(
      // Any UTF-16 code units: pairs, lone halves and NUL all come up.
      fc.property(fc.string({ unit: codeUnit }), (text) => {
        const wellFormed = Buffer.from(text, "utf8").toString("utf8") === text;
        expect(unstorableText(text) === undefined).toBe(wellFormed && !text.includes("\u0000"));
      }),
    );
  });
});
