import {
  RESERVED_SLUGS,
  SLUG_LENGTH,
  SLUG_RESERVED,
  SLUG_SHAPE,
  slugFromName,
  slugProblem,
} from "@tessera/organizations";
import { describe, expect, it } from "vitest";

describe("slugProblem", () => {
  it.each(["acme", "a-b", "abc", "123", "acme-inc-2", "a".repeat(40), "org", "new-york"])(
    "accepts %j",
    (slug) => {
      expect(slugProblem(slug)).toBeUndefined();
    },
  );

  it.each(["", "ab", "a".repeat(41)])("says %j is too short or too long", (slug) => {
    expect(slugProblem(slug)).toBe(SLUG_LENGTH);
  });

  it.each(["Acme", "-acme", "acme-", "ac--me", "ac_me", "ac me", "acmé", "ac.me", "---"])(
    "says %j is not of the shape",
    (slug) => {
      expect(slugProblem(slug)).toBe(SLUG_SHAPE);
    },
  );

  it("refuses every reserved word, and only those", () => {
    for (const slug of RESERVED_SLUGS) expect(slugProblem(slug)).toBe(SLUG_RESERVED);
    expect(RESERVED_SLUGS.has("new")).toBe(true);
    expect(RESERVED_SLUGS.has("api")).toBe(true);
    expect(slugProblem("news")).toBeUndefined();
  });
});

describe("slugFromName", () => {
  it.each([
    ["Acme", "acme"],
    ["Acme, Inc.", "acme-inc"],
    ["  --Acme   Corp--  ", "acme-corp"],
    ["Café Crème", "cafe-creme"],
    ["Ölmühle Österreich", "olmuhle-osterreich"],
    ["Ångström Lab", "angstrom-lab"],
    ["Ⅻ Legion", "xii-legion"],
    ["ﬁne Art", "fine-art"],
    ["東京 Tokyo", "tokyo"],
  ])("makes %j %j", (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
  });

  it("puts org- before a name too short for a slug", () => {
    expect(slugFromName("A")).toBe("org-a");
    expect(slugFromName("AB")).toBe("org-ab");
    expect(slugFromName("東京")).toBe("org");
    expect(slugFromName("")).toBe("org");
    expect(slugFromName("!!!")).toBe("org");
  });

  it("puts org- before a reserved word", () => {
    expect(slugFromName("API")).toBe("org-api");
    expect(slugFromName("Settings")).toBe("org-settings");
    expect(slugFromName("New")).toBe("org-new");
  });

  it("cuts a long name to 40 characters without a hyphen at the end", () => {
    const slug = slugFromName(`${"word ".repeat(7)}abcdefgh tail`);
    expect(slug).toBe("word-word-word-word-word-word-word-abcde");
    expect(slugFromName(`${"a".repeat(39)} b`)).toBe("a".repeat(39));
    expect(slugFromName("a".repeat(60))).toBe("a".repeat(40));
  });
});
