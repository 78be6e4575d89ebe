import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { browserName } from "../src/tracked-session-browser.js";

// The longest label the tables can make: "Samsung Internet 9999 on Android".
const LONGEST_LABEL = "Samsung Internet 9999 on Android".length;

describe("browserName on any header", () => {
  it("never throws and gives a short label made only of its tables' words", () => {
    const headerText = fc.oneof(
      fc.string({ maxLength: 700 }),
      fc.string({ unit: "binary", maxLength: 200 }),
      // Real tokens in random order, so the rules meet each other.
      fc
        .array(
          fc.constantFrom(
            "Mozilla/5.0",
            "(X11; Linux x86_64)",
            "(iPhone; CPU iPhone OS 17_1 like Mac OS X)",
            "Chrome/120.0",
            "CriOS/99",
            "Edg/120.1",
            "Firefox/128.0",
            "Version/17.1",
            "Mobile/15E148",
            "Safari/604.1",
            "OPR/63.0",
            "curl/8.0",
          ),
          { maxLength: 8 },
        )
        .map((tokens) => tokens.join(" ")),
    );
    fc.assert(
      fc.property(headerText, (header) => {
        const label = browserName(header);
        expect(label.length).toBeGreaterThan(0);
        expect(label.length).toBeLessThanOrEqual(LONGEST_LABEL);
        expect(label).toMatch(/^[A-Za-z][A-Za-z ]*(?: \d{1,4})?(?: on [A-Za-z]+)?$/);
        expect(browserName(header)).toBe(label);
      }),
      { numRuns: 500 },
    );
  });
});
