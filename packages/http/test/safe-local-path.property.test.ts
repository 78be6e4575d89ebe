import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeLocalPath } from "../src/index.js";

const APP = "https://app.example";

/** What a browser, or a decoding proxy in front of it, could make of an accepted target. */
function readings(target: string): string[] {
  const all = [target];
  try {
    all.push(decodeURIComponent(target));
  } catch {
    // Not decodable as a whole: the raw reading is the only one.
  }
  return all;
}

function assertStaysOnApp(target: string) {
  const accepted = safeLocalPath(target);
  if (accepted === undefined) return;
  expect(accepted).toBe(target);
  for (const reading of readings(accepted)) {
    expect(new URL(reading, APP).origin).toBe(APP);
    expect(new URL(reading, `${APP}/deep/page`).origin).toBe(APP);
  }
}

const hostilePiece = fc.constantFrom(
  "/",
  "//",
  "\\",
  "/\\",
  "%2f",
  "%2F",
  "%5c",
  "%5C",
  "%252f",
  "%255C",
  "%25",
  "%",
  "\t",
  "\n",
  "\r",
  " ",
  "\u0000",
  "%09",
  "%0a",
  "%0D",
  "%00",
  "\u3000",
  "\uff0f",
  "\u2028",
  "evil.example",
  "app.example",
  "@",
  ":",
  "https:",
  "http:",
  "javascript:",
  "data:",
  "//evil",
  ".",
  "..",
  "%2e",
  "%2E%2E",
  "?",
  "#",
  "a",
  "x=1",
  "&",
);
const hostileTarget = fc.array(hostilePiece, { maxLength: 10 }).map((pieces) => pieces.join(""));

describe("safeLocalPath properties", () => {
  it("never accepts a target that leaves the app, for any string", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), assertStaysOnApp), { numRuns: 2000 });
  });

  it("never accepts a target that leaves the app, for hostile compositions", () => {
    fc.assert(fc.property(hostileTarget, assertStaysOnApp), { numRuns: 5000 });
  });

  it("never accepts a target that leaves the app when it starts with one slash", () => {
    fc.assert(
      fc.property(hostileTarget, (rest) => assertStaysOnApp(`/${rest}`)),
      { numRuns: 5000 },
    );
  });

  it("accepts every plain path of this app, unchanged", () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_.~-]{1,12}$/).filter((s) => !/^\.+$/.test(s));
    const query = fc.option(fc.stringMatching(/^[a-z0-9=&]{0,20}$/), { nil: undefined });
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), query, (segments, search) => {
        const target = `/${segments.join("/")}${search === undefined ? "" : `?${search}`}`;
        expect(safeLocalPath(target)).toBe(target);
      }),
    );
  });
});
