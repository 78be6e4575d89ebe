import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isValidEmail,
  MAXIMUM_EMAIL_LENGTH,
  normalizeEmail,
  normalizeSubmittedEmail,
} from "../src/users/email.js";

describe("normalizeEmail", () => {
  it("applies NFKC, trims and lower-cases", () => {
    expect(normalizeEmail("  Alice@Example.COM \n")).toBe("alice@example.com");
    // Fullwidth letters and the fullwidth at sign fold to ASCII, so they cannot make a twin account.
    expect(normalizeEmail("ａｌｉｃｅ＠ｅｘａｍｐｌｅ．ｃｏｍ")).toBe("alice@example.com");
    expect(normalizeEmail("ÉMILE@example.com")).toBe("émile@example.com");
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        expect(normalizeEmail(normalizeEmail(input))).toBe(normalizeEmail(input));
      }),
    );
  });
});

describe("normalizeSubmittedEmail", () => {
  it("normalizes what can be an address, spaces and folded characters included", () => {
    expect(normalizeSubmittedEmail(`${" ".repeat(700)}Alice@Example.COM `)).toBe(
      "alice@example.com",
    );
    // 254 mathematical bold letters are 508 UTF-16 units, and 254 ASCII letters once folded.
    const bold = "\u{1D41A}".repeat(MAXIMUM_EMAIL_LENGTH);
    expect(normalizeSubmittedEmail(bold)).toBe("a".repeat(MAXIMUM_EMAIL_LENGTH));
  });

  it("refuses text longer than an address after normalizing, and a megabyte before", () => {
    expect(normalizeSubmittedEmail("a".repeat(MAXIMUM_EMAIL_LENGTH + 1))).toBeUndefined();
    expect(normalizeSubmittedEmail(`${" ".repeat(1_000_000)}a@b.co`)).toBeUndefined();
  });
});

describe("isValidEmail", () => {
  it.each(["a@b", "alice@example.com", "first.last+tag@sub.example.co.uk", "o'brien@example.ie"])(
    "accepts %s",
    (email) => {
      expect(isValidEmail(email)).toBe(true);
    },
  );

  it.each([
    "",
    "plainaddress",
    "@example.com",
    "alice@",
    "alice@@example.com",
    "alice example@example.com",
    "alice@example..com",
    "alice@-example.com",
    "émile@example.com",
    `${"a".repeat(250)}@b.co`,
    "alice@example.com\n",
    "<script>@example.com",
  ])("refuses %j", (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});
