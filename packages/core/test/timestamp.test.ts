import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatTimestamp, parseTimestamp } from "../src/timestamp.js";

// The definitions the hand-written versions replace, kept as the oracle they must agree with.
const formatThroughIso = (epochMs: number) =>
  new Date(epochMs).toISOString().slice(0, 19).replace("T", " ");
const parseThroughDateParse = (text: string) =>
  /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)
    ? Date.parse(`${text.replace(" ", "T")}Z`)
    : Number.NaN;

/** Text of the timestamp's shape, each field any two (or four) digits, separators mostly right. */
const timestampLike = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 5, maxLength: 5 }),
    fc.array(fc.constantFrom("-", "-", " ", ":", "T", "x", "0"), { minLength: 5, maxLength: 5 }),
    fc.boolean(),
  )
  .map(([year, fields, separators, wellFormed]) => {
    const [month, day, hour, minute, second] = fields.map((field) =>
      String(field).padStart(2, "0"),
    );
    const [a, b, c, d, e] = wellFormed ? ["-", "-", " ", ":", ":"] : separators;
    return `${String(year).padStart(4, "0")}${a}${month}${b}${day}${c}${hour}${d}${minute}${e}${second}`;
  });

describe("timestamps", () => {
  it("formats UTC as YYYY-MM-DD HH:MM:SS, dropping milliseconds", () => {
    expect(formatTimestamp(Date.UTC(2026, 10, 22, 9, 5, 7, 999))).toBe("2026-11-22 09:05:07");
    expect(formatTimestamp(Date.UTC(999, 0, 2, 3, 4, 5) + 0)).toBe("0999-01-02 03:04:05");
  });

  it("formats every time as toISOString does", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(formatTimestamp(ms)).toBe(formatThroughIso(ms));
      }),
      { numRuns: 2000 },
    );
    expect(() => formatTimestamp(Number.NaN)).toThrow(RangeError);
  });

  it("parses what it formats back to the second", () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_000 }), (ms) => {
        expect(parseTimestamp(formatTimestamp(ms))).toBe(Math.floor(ms / 1000) * 1000);
      }),
    );
  });

  it("accepts and refuses exactly what Date.parse does of the ISO form", () => {
    fc.assert(
      fc.property(fc.oneof(timestampLike, fc.string({ maxLength: 22 })), (text) => {
        expect(parseTimestamp(text)).toBe(parseThroughDateParse(text));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ["2026-02-31 00:00:00", Date.UTC(2026, 2, 3)],
    ["2026-01-01 24:00:00", Date.UTC(2026, 0, 2)],
    ["0000-01-01 00:00:00", -62_167_219_200_000],
    ["0099-12-31 23:59:59", Date.UTC(2099, 11, 31, 23, 59, 59) - 2000 * 365.2425 * 86_400_000],
  ])("reads %j as Date.parse does", (text, expected) => {
    expect(parseTimestamp(text)).toBe(expected);
    expect(parseThroughDateParse(text)).toBe(expected);
  });

  it.each([
    "",
    "2026-11-22",
    "2026-11-22T09:05:07",
    "2026-11-22 09:05:07Z",
    "x",
    "2026-13-01 00:00:00",
    "2026-00-10 00:00:00",
    "2026-01-00 00:00:00",
    "2026-01-01 24:00:01",
    "2026-01-01 23:60:00",
    "2026-01-01 23:59:60",
    "２０２６-01-01 00:00:00",
    "+026-01-01 00:00:00",
  ])("gives NaN for %j", (text) => {
    expect(parseTimestamp(text)).toBeNaN();
  });
});
