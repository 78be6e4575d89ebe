import { describe, expect, it } from "vitest";
import {
  MAXIMUM_FLASH_MESSAGE_LENGTH,
  MAXIMUM_FLASHES,
  MAXIMUM_PAYLOAD_BYTES,
  MAXIMUM_REMEMBERED_PAGE_LENGTH,
  MAXIMUM_SESSION_VALUES,
  type Session,
} from "../src/index.js";
import { browserRequest, cookiePair, testSessions } from "./fixtures.js";

// The longest app name makes the longest cookie name, `_<32 characters>_session`.
const { sessions } = testSessions({ appName: "a".repeat(32) });
const LARGEST_SEALED_VALUE = Math.ceil(((MAXIMUM_PAYLOAD_BYTES + 29) * 4) / 3);

/** Fills everything but the flashes to its limit, with the characters that escape worst. */
function fillToTheLimit(session: Session) {
  session.signIn(Number.MAX_SAFE_INTEGER, { rememberMe: true, lifetimeSeconds: 1_209_599 });
  // `"` is a character safeLocalPath allows and JSON doubles.
  expect(session.rememberPage(`/${'"'.repeat(MAXIMUM_REMEMBERED_PAGE_LENGTH - 1)}`)).toBe(true);
  for (let index = 0; index < MAXIMUM_SESSION_VALUES; index++) {
    session.set(`${String(index).repeat(32)}`.replace(/^./, "v"), "~".repeat(128));
  }
}

async function roundTrip(session: Session) {
  const setCookie = (await sessions.setCookie(session))!;
  const pair = cookiePair(setCookie);
  const next = await sessions.read(browserRequest("https://app.test/", pair));
  return { setCookie, pair, next };
}

describe("cookie size", () => {
  it("the fullest session stays well under 4 KB; the oldest flashes give way, nothing else", async () => {
    const session = await sessions.read(browserRequest("https://app.test/"));
    fillToTheLimit(session);
    // NUL escapes to six bytes in JSON: these flashes cannot all fit.
    for (let index = 0; index < MAXIMUM_FLASHES; index++) {
      session.flash("notice", String(index) + "\u0000".repeat(MAXIMUM_FLASH_MESSAGE_LENGTH - 1));
    }
    const { setCookie, pair, next } = await roundTrip(session);
    expect(pair.length).toBeLessThanOrEqual(42 + LARGEST_SEALED_VALUE);
    expect(LARGEST_SEALED_VALUE).toBe(2770);
    expect(setCookie.length).toBeLessThan(3000);

    expect(next.userId).toBe(Number.MAX_SAFE_INTEGER);
    expect(next.takeRememberedPage()).toBe(`/${'"'.repeat(MAXIMUM_REMEMBERED_PAGE_LENGTH - 1)}`);
    expect(next.get("v".padEnd(32, "3"))).toBe("~".repeat(128));
    // Each of these flashes alone is over 1500 bytes of JSON: none fits beside the rest.
    expect(next.takeFlashes()).toEqual([]);
  });

  it("flashes that do not fit together give way oldest first", async () => {
    const session = await sessions.read(browserRequest("https://app.test/"));
    session.signIn(7);
    const messages = ["a", "b", "c"].map((first) => first + "\u0000".repeat(199));
    for (const message of messages) session.flash("alert", message);
    // About 1230 bytes each: two do not fit in 2048, one does.
    const { next } = await roundTrip(session);
    expect(next.userId).toBe(7);
    expect(next.takeFlashes()).toEqual([{ kind: "alert", message: messages[2] }]);
  });

  it("a full session of ordinary text keeps all its flashes", async () => {
    const session = await sessions.read(browserRequest("https://app.test/"));
    session.signIn(123456, { rememberMe: true });
    session.rememberPage(`/posts?${"q=word&".repeat(40)}`);
    session.set("oauth_state", "s".repeat(43));
    session.set("pkce_verifier", "v".repeat(128));
    session.set("tracked_session", "t".repeat(43));
    for (let index = 0; index < MAXIMUM_FLASHES; index++) {
      session.flash("notice", `${index} ${"Your changes were saved. ".repeat(10)}`.trim());
    }
    const { setCookie, next } = await roundTrip(session);
    expect(setCookie.length).toBeLessThan(3000);
    expect(next.takeFlashes()).toHaveLength(MAXIMUM_FLASHES);
  });
});
