import { describe, expect, it } from "vitest";
import {
  checkPasswordPolicy,
  MAXIMUM_PASSWORD_LENGTH,
  MINIMUM_PASSWORD_LENGTH,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from "../src/index.js";

describe("checkPasswordPolicy", () => {
  it("uses the documented messages and limits", () => {
    expect(PASSWORD_TOO_SHORT).toBe("is too short (minimum is 8 characters)");
    expect(PASSWORD_TOO_LONG).toBe("is too long (maximum is 128 characters)");
    expect([MINIMUM_PASSWORD_LENGTH, MAXIMUM_PASSWORD_LENGTH]).toEqual([8, 128]);
  });

  it.each([
    ["empty", "", ["is too short (minimum is 8 characters)"]],
    ["7 characters", "a".repeat(7), ["is too short (minimum is 8 characters)"]],
    ["8 characters", "a".repeat(8), []],
    ["128 characters", "a".repeat(128), []],
    ["129 characters", "a".repeat(129), ["is too long (maximum is 128 characters)"]],
    ["8 spaces (not trimmed)", " ".repeat(8), []],
  ])("%s", (_name, password, messages) => {
    expect(checkPasswordPolicy(password)).toEqual(messages);
  });

  it("counts code points, not UTF-16 units", () => {
    // Each key emoji is two UTF-16 units: 7 of them are 14 units but 7 characters.
    expect(checkPasswordPolicy("🔑".repeat(7))).toEqual([PASSWORD_TOO_SHORT]);
    expect(checkPasswordPolicy("🔑".repeat(8))).toEqual([]);
    expect(checkPasswordPolicy("🔑".repeat(128))).toEqual([]);
    expect(checkPasswordPolicy("🔑".repeat(129))).toEqual([PASSWORD_TOO_LONG]);
  });

  it("counts a combining accent as its own code point and a lone surrogate as one", () => {
    expect(checkPasswordPolicy("e\u0301".repeat(4))).toEqual([]);
    expect(checkPasswordPolicy("\ud800".repeat(8))).toEqual([]);
  });
});
