import { RESERVED_SLUGS, slugFromName, slugProblem } from "@tessera/organizations";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Names as people type them: any text, and Latin words with accents, marks and punctuation. */
const name = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc
    .array(
      fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9]{1,12}$/),
        fc.constantFrom(
          "é",
          "Ö",
          "ñ",
          "Å",
          "ç",
          "ß",
          "İ",
          "ﬁ",
          "Ⅻ",
          "東京",
          "—",
          " ",
          "-",
          ".",
          "&",
        ),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join("")),
  fc.constantFrom(...RESERVED_SLUGS).map((word) => word.toUpperCase()),
);

describe("slugFromName, for any name", () => {
  it("makes a slug that slugProblem accepts", () => {
    fc.assert(
      fc.property(name, (typed) => {
        const slug = slugFromName(typed);
        expect(slugProblem(slug)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps a slug that is already one", () => {
    const slug = fc
      .stringMatching(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      .filter((candidate) => slugProblem(candidate) === undefined);
    fc.assert(
      fc.property(slug, (candidate) => {
        expect(slugFromName(candidate)).toBe(candidate);
      }),
    );
  });

  it("is the same for a name and its slug (making it again changes nothing)", () => {
    fc.assert(
      fc.property(name, (typed) => {
        const slug = slugFromName(typed);
        expect(slugFromName(slug)).toBe(slug);
      }),
    );
  });
});

describe("slugProblem, for any text", () => {
  it("accepts only 3 to 40 of [a-z0-9] with single inner hyphens, and no reserved word", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 45 }), fc.stringMatching(/^[a-z0-9-]{0,45}$/)),
        (text) => {
          const accepted = slugProblem(text) === undefined;
          const expected =
            /^[a-z0-9]+(-[a-z0-9]+)*$/.test(text) &&
            text.length >= 3 &&
            text.length <= 40 &&
            !RESERVED_SLUGS.has(text);
          expect(accepted).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
