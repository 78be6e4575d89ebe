import { describe, expect, it } from "vitest";
import { pathId } from "../src/index.js";

describe("pathId", () => {
  it("reads plain decimal digits up to 2^53 - 1", () => {
    expect(pathId("1")).toBe(1);
    expect(pathId("42")).toBe(42);
    expect(pathId("9007199254740991")).toBe(9007199254740991);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["zero", "0"],
    ["a leading zero", "012"],
    ["a sign", "+5"],
    ["a negative number", "-1"],
    ["an exponent", "1e3"],
    ["a fraction", "1.0"],
    ["spaces", " 1"],
    ["full-width digits", "１２"],
    ["2^53", "9007199254740992"],
    ["16 nines, which a number holds as 1e16", "9999999999999999"],
    ["17 digits", "10000000000000000"],
  ])("names no row for %s", (_case, text) => {
    expect(pathId(text)).toBeUndefined();
  });
});
