import { decodeBase64url, encodeBase64url } from "@tessera/crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Flash, MAXIMUM_FLASHES, SESSION_LIFETIME_SECONDS } from "../src/index.js";
import { browserRequest, COOKIE_NAME, cookiePair, T0, testSessions } from "./fixtures.js";

const { sessions, clock } = testSessions();

const first = await sessions.read(browserRequest());
first.signIn(7);
const validValue = cookiePair((await sessions.setCookie(first))!).slice(COOKIE_NAME.length + 1);

const base64urlCharacter = fc.constantFrom(
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
);
/** Any Latin-1 character a header value may hold (not NUL, CR or LF), and some that matter here. */
const headerCharacter = fc.oneof(
  base64urlCharacter,
  fc.constantFrom(";", ",", "=", " ", '"', "_tessera_session=", "\t", "é"),
  fc
    .integer({ min: 1, max: 255 })
    .filter((code) => code !== 10 && code !== 13)
    .map((code) => String.fromCharCode(code)),
);
/** A cookie value close to a real one: the valid value with bytes changed, cut or added. */
const nearMiss = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([position, mask]) => {
    const bytes = decodeBase64url(validValue);
    bytes[position % bytes.length]! ^= mask;
    return encodeBase64url(bytes);
  }),
  fc.nat().map((length) => validValue.slice(0, length % validValue.length)),
  fc.string({ unit: base64urlCharacter, minLength: 1 }).map((extra) => validValue + extra),
  fc.string({ unit: base64urlCharacter, maxLength: 400 }),
);

describe("read on hostile cookies (properties)", () => {
  it("never throws and never yields a user for an arbitrary Cookie header", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: headerCharacter, maxLength: 300 }), async (header) => {
        const session = await sessions.read(browserRequest("http://app.test/", header));
        expect(session.userId).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it("never yields a user for a near miss of a real cookie, wherever it sits in the header", async () => {
    await fc.assert(
      fc.asyncProperty(
        nearMiss,
        fc.string({ unit: headerCharacter, maxLength: 40 }),
        async (value, before) => {
          fc.pre(value !== validValue);
          const header = `${before.replaceAll(COOKIE_NAME, "x")}; ${COOKIE_NAME}=${value}`;
          const session = await sessions.read(browserRequest("http://app.test/", header));
          expect(session.userId).toBeUndefined();
        },
      ),
      { numRuns: 1000 },
    );
  });
});

const flashArbitrary: fc.Arbitrary<Flash> = fc.record({
  kind: fc.constantFrom("notice" as const, "alert" as const),
  // Short enough that three of them, escaped, always fit the payload beside the rest.
  message: fc.string({ unit: "binary", maxLength: 32 }),
});
const valueName = fc.stringMatching(/^[a-z][a-z0-9_]{0,31}$/);
const valueText = fc.stringMatching(/^[A-Za-z0-9._~-]{1,128}$/);

describe("round trip (properties)", () => {
  it("what a session holds is what the next request reads", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { nil: undefined }),
        fc.boolean(),
        fc.uniqueArray(flashArbitrary, {
          maxLength: MAXIMUM_FLASHES,
          selector: (flash) => `${flash.kind}:${flash.message}`,
        }),
        fc.option(
          fc.webPath().filter((path) => path.startsWith("/")),
          { nil: undefined },
        ),
        fc.uniqueArray(fc.tuple(valueName, valueText), {
          maxLength: 4,
          selector: ([name]) => name,
        }),
        fc.integer({ min: 0, max: SESSION_LIFETIME_SECONDS * 1000 - 1 }),
        async (userId, rememberMe, flashes, page, values, later) => {
          clock.set(T0);
          const session = await sessions.read(browserRequest());
          if (userId !== undefined) session.signIn(userId, { rememberMe });
          for (const flash of flashes) session.flash(flash.kind, flash.message);
          const remembered = page === undefined ? false : session.rememberPage(page);
          for (const [name, value] of values) session.set(name, value);

          const setCookie = await sessions.setCookie(session);
          clock.set(T0 + later);
          const next = await sessions.read(
            browserRequest("http://app.test/", setCookie && cookiePair(setCookie)),
          );
          expect(next.userId).toBe(userId);
          expect(next.rememberMe).toBe(userId !== undefined && rememberMe);
          expect(next.takeFlashes()).toEqual(flashes);
          expect(next.takeRememberedPage()).toBe(remembered ? page : undefined);
          for (const [name, value] of values) expect(next.get(name)).toBe(value);
        },
      ),
      { numRuns: 300 },
    );
  });
});
