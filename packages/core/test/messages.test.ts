import { describe, expect, it } from "vitest";
import { defineMessages, ENGLISH, fillTemplate, type Locale } from "../src/index.js";

const messages = defineMessages({
  "demo.greeting": "Hello, {name}",
  "demo.limit": "is too long (maximum is {maximum} characters)",
  "demo.plain": "Not found",
});
const french: Locale = {
  tag: "fr",
  catalog: { "demo.greeting": "Bonjour, {name}", "demo.plain": "Introuvable" },
};

describe("defineMessages", () => {
  it("writes English without a locale, and with the ENGLISH locale", () => {
    expect(messages.text(undefined, "demo.greeting", { name: "Ada" })).toBe("Hello, Ada");
    expect(messages.text(ENGLISH, "demo.plain")).toBe("Not found");
  });

  it("writes the locale's template when its catalog has the id", () => {
    expect(messages.text(french, "demo.greeting", { name: "Ada" })).toBe("Bonjour, Ada");
    expect(messages.text(french, "demo.plain")).toBe("Introuvable");
  });

  it("falls back to English for an id the locale's catalog lacks", () => {
    expect(messages.text(french, "demo.limit", { maximum: 100 })).toBe(
      "is too long (maximum is 100 characters)",
    );
  });

  it("keeps its English templates for translators and completeness checks", () => {
    expect(Object.keys(messages.english)).toEqual(["demo.greeting", "demo.limit", "demo.plain"]);
  });
});

describe("fillTemplate", () => {
  it("fills every hole, and leaves a hole with no parameter as written", () => {
    expect(fillTemplate("{a} and {a}, {b}", { a: 1 })).toBe("1 and 1, {b}");
  });

  it("puts parameter values in as they are: no template syntax inside them is read", () => {
    expect(fillTemplate("Hello, {name}", { name: "{name} <b>" })).toBe("Hello, {name} <b>");
  });

  it("gives a template without holes back unchanged", () => {
    expect(fillTemplate("Not found", { name: "x" })).toBe("Not found");
  });
});
