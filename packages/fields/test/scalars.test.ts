import { describe, expect, it } from "vitest";
import {
  camelize,
  fullMessage,
  humanizeFieldName,
  isCalendarDate,
  isDateTime,
  isDecimalText,
  isTimeOfDay,
  isUuidText,
  mediaType,
  parseFloatText,
  parseIntegerText,
  pluralize,
  singularize,
  tooLargeMessage,
  validateAttachment,
} from "../src/index.js";

describe("calendar", () => {
  it.each([
    ["2024-02-29", true],
    ["2000-02-29", true],
    ["1900-02-29", false],
    ["2023-02-29", false],
    ["2023-02-28", true],
    ["2023-04-31", false],
    ["2023-12-31", true],
    ["2023-13-01", false],
    ["2023-00-10", false],
    ["2023-01-00", false],
    ["0000-01-01", true],
    ["9999-12-31", true],
    ["10000-01-01", false],
    ["2023-1-01", false],
    ["2023-01-01 ", false],
    ["２０２３-01-01", false],
  ])("date %s → %s", (text, valid) => {
    expect(isCalendarDate(text)).toBe(valid);
  });

  it.each([
    ["00:00", true],
    ["23:59:59", true],
    ["24:00", false],
    ["12:60", false],
    ["12:00:60", false],
    ["7:00", false],
    ["12:00:00.1", false],
    ["12:00Z", false],
  ])("time %s → %s", (text, valid) => {
    expect(isTimeOfDay(text)).toBe(valid);
  });

  it.each([
    ["2024-02-29 23:59", true],
    ["2024-02-29T00:00:00", true],
    ["2024-02-29", false],
    ["2024-02-29T", false],
    ["2024-02-29_10:00", false],
    ["2023-02-29 10:00", false],
    ["2024-02-29T10:00:00Z", false],
  ])("datetime %s → %s", (text, valid) => {
    expect(isDateTime(text)).toBe(valid);
  });
});

describe("number text", () => {
  it("reads integers strictly and says how far out of range they are", () => {
    expect(parseIntegerText("+7")).toBe(7);
    expect(Object.is(parseIntegerText("-0"), 0)).toBe(true);
    expect(parseIntegerText("9007199254740993")).toBeGreaterThan(9007199254740991);
    for (const text of ["", " 7", "7.0", "1e3", "0x10", "٣", "+", "--1"])
      expect(parseIntegerText(text)).toBeUndefined();
  });

  it("reads finite floats only", () => {
    expect(parseFloatText("1.5e-3")).toBe(0.0015);
    expect(parseFloatText(".5")).toBe(0.5);
    expect(parseFloatText("5.")).toBe(5);
    for (const text of ["NaN", "Infinity", "-Infinity", "1e999", "1,5", "", " 1", "0b1"]) {
      expect(parseFloatText(text)).toBeUndefined();
    }
  });

  it("reads decimals as the documented grammar", () => {
    for (const text of ["0", "-12.50", "+3", "007.000"]) expect(isDecimalText(text)).toBe(true);
    for (const text of ["1e5", "1.", ".5", "1,000", "1 000", "", "-", "1.2.3"])
      expect(isDecimalText(text)).toBe(false);
  });

  it("reads hyphenated UUIDs in any case", () => {
    expect(isUuidText("0f8fad5b-d9cb-469f-a165-70867728950e")).toBe(true);
    expect(isUuidText("0F8FAD5B-D9CB-469F-A165-70867728950E")).toBe(true);
    expect(isUuidText("{0f8fad5b-d9cb-469f-a165-70867728950e}")).toBe(false);
    expect(isUuidText("0f8fad5bd9cb469fa16570867728950e")).toBe(false);
    expect(isUuidText("0f8fad5b-d9cb-469f-a165-70867728950g")).toBe(false);
  });
});

describe("names", () => {
  it.each([
    ["post", "posts"],
    ["category", "categories"],
    ["day", "days"],
    ["box", "boxes"],
    ["match", "matches"],
    ["blog_entry", "blog_entries"],
  ])("pluralizes %s as %s and back", (singular, plural) => {
    expect(pluralize(singular)).toBe(plural);
    expect(singularize(plural)).toBe(singular);
  });

  it.each([
    ["title", "title"],
    ["publish_on", "publishOn"],
    ["created_at", "createdAt"],
    ["post_id", "postId"],
    ["blog_entry", "blogEntry"],
    ["a_1_b", "a1B"],
  ])("camelizes %s as %s", (snake, camel) => {
    expect(camelize(snake)).toBe(camel);
  });

  it("humanizes field names for HTML messages", () => {
    expect(humanizeFieldName("publish_on")).toBe("Publish on");
    expect(humanizeFieldName("post_id")).toBe("Post");
    expect(fullMessage("title", "can't be blank")).toBe("Title can't be blank");
  });
});

describe("attachment rules", () => {
  it("checks size and declared type with the documented messages", () => {
    expect(validateAttachment({ size: 10 * 1024 * 1024, type: "IMAGE/PNG" })).toEqual([]);
    expect(validateAttachment({ size: 10 * 1024 * 1024 + 1, type: "image/png" })).toEqual([
      "is too large (maximum is 10 MB)",
    ]);
    expect(validateAttachment({ size: 1, type: "" })).toEqual([
      "has an unsupported type (allowed: image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain)",
    ]);
    expect(mediaType(" Text/Plain ; charset=utf-8")).toBe("text/plain");
    expect(tooLargeMessage(512 * 1024)).toBe("is too large (maximum is 0.5 MB)");
  });
});
