import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCookies, serializeCookie } from "../src/index.js";

const cookieName = fc
  .stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,20}$/)
  .filter((name) => !name.startsWith("__Secure-") && !name.startsWith("__Host-"));
const cookieValue = fc.stringMatching(/^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]{0,40}$/);
const attributes = fc.record(
  {
    maxAge: fc.integer({ min: -1, max: 10_000_000 }),
    path: fc.stringMatching(/^\/[a-z0-9/_-]{0,20}$/),
    domain: fc.constantFrom("app.example", ".app.example", "localhost"),
    secure: fc.boolean(),
    httpOnly: fc.boolean(),
    sameSite: fc.constantFrom("Strict", "Lax"),
  },
  { requiredKeys: [] },
);

describe("cookie properties", () => {
  it("serialize then parse gives the value back", () => {
    fc.assert(
      fc.property(cookieName, cookieValue, attributes, (name, value, attrs) => {
        const setCookie = serializeCookie(name, value, attrs);
        // The browser sends back the name=value part, before the first attribute.
        const sentBack = setCookie.split("; ")[0];
        expect(parseCookies(sentBack).get(name)).toBe(value);
      }),
    );
  });

  it("a Cookie header of several serialized pairs parses to all of them", () => {
    const jar = fc.uniqueArray(fc.tuple(cookieName, cookieValue), {
      selector: ([name]) => name,
      maxLength: 8,
    });
    fc.assert(
      fc.property(jar, (pairs) => {
        const header = pairs.map(([name, value]) => serializeCookie(name, value)).join("; ");
        expect(parseCookies(header)).toEqual(new Map(pairs));
      }),
    );
  });

  it("parsing never throws and never touches a prototype", () => {
    const hostile = fc.oneof(
      fc.string({ unit: "binary" }),
      fc
        .array(
          fc.constantFrom("__proto__", "constructor", "prototype", "=", ";", '"', " ", "a", "1"),
        )
        .map((pieces) => pieces.join("")),
    );
    fc.assert(
      fc.property(hostile, (header) => {
        const cookies = parseCookies(header);
        for (const [name, value] of cookies) {
          expect(typeof name).toBe("string");
          expect(typeof value).toBe("string");
          expect(name).not.toBe("");
        }
        expect(Object.keys(Object.prototype)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
