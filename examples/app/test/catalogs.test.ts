import { describe, expect, it } from "vitest";
import { french } from "../src/locales/french.js";
import { ENGLISH_CATALOGS, SHIPPED_CATALOGS } from "../src/locales/shipped-catalogs.js";

const holesOf = (template: string) =>
  [...template.matchAll(/\{(\w+)\}/g)].map((hole) => hole[1]).sort();

const englishIds = ENGLISH_CATALOGS.flatMap((messages) => Object.entries(messages.english));

describe("the shipped catalogs", () => {
  it("ship French", () => {
    expect(Object.keys(SHIPPED_CATALOGS)).toEqual(["fr"]);
  });

  for (const [tag, catalog] of Object.entries(SHIPPED_CATALOGS)) {
    it(`${tag} has every message of every package, with the same values put in`, () => {
      const missing = englishIds.filter(([id]) => !catalog[id]?.trim()).map(([id]) => id);
      expect(missing).toEqual([]);
      for (const [id, english] of englishIds) {
        expect({ id, holes: holesOf(catalog[id] ?? "") }).toEqual({ id, holes: holesOf(english) });
      }
    });

    it(`${tag} has no message that no package writes`, () => {
      const known = new Set(englishIds.map(([id]) => id));
      expect(Object.keys(catalog).filter((id) => !known.has(id))).toEqual([]);
    });
  }

  it("give no two packages the same id", () => {
    const ids = englishIds.map(([id]) => id);
    expect(ids.length).toBe(new Set(ids).size);
    expect(Object.keys(french).length).toBe(ids.length);
  });
});
