import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatTimestamp, parseTimestamp } from "../src/timestamp.js";

describe("timestamps", () => {
  it("formats UTC as YYYY-MM-DD HH:MM:SS, dropping milliseconds", () => {
    expect(formatTimestamp(Date.UTC(2026, 10, 22, 9, 5, 7, 999))).toBe("2026-11-22 09:05:07");
  });

  it("parses what it formats back to the second", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_000 }), (ms) => {
        expect(parseTimestamp(formatTimestamp(ms))).toBe(Math.floor(ms / 1000) * 1000);
      }),
    );
  });

  it.each(["", "2026-11-22", "2026-11-22T09:05:07", "2026-11-22 09:05:07Z", "x"])(
    "gives NaN for %j",
    (text) => {
      expect(parseTimestamp(text)).toBeNaN();
    },
  );
});
