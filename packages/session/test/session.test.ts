import { describe, expect, it } from "vitest";
import {
  MAXIMUM_FLASH_MESSAGE_LENGTH,
  MAXIMUM_FLASHES,
  MAXIMUM_REMEMBERED_PAGE_LENGTH,
  MAXIMUM_SESSION_VALUES,
  type Session,
  type SessionCookies,
} from "../src/index.js";
import { browserRequest, cookiePair, testSessions } from "./fixtures.js";

const { sessions } = testSessions();

/** Commits a session and reads it back as the browser's next request would. */
async function nextRequest(
  cookies: SessionCookies,
  session: Session,
  previousCookie?: string,
): Promise<{ session: Session; cookie: string | undefined }> {
  const setCookie = await cookies.setCookie(session);
  const cookie = setCookie === undefined ? previousCookie : cookiePair(setCookie);
  const next = await cookies.read(browserRequest("http://app.test/", cookie));
  return { session: next, cookie };
}

describe("flash messages", () => {
  it("are read in the next request, then gone", async () => {
    const first = await sessions.read(browserRequest());
    first.flash("alert", "Please log in to continue.");
    first.flash("notice", "Saved.");
    const second = await nextRequest(sessions, first);
    expect(second.session.takeFlashes()).toEqual([
      { kind: "alert", message: "Please log in to continue." },
      { kind: "notice", message: "Saved." },
    ]);
    // Taking them changed the session: the response writes the cookie without them.
    const third = await nextRequest(sessions, second.session, second.cookie);
    expect(third.session.takeFlashes()).toEqual([]);
  });

  it("stay until a page takes them", async () => {
    const first = await sessions.read(browserRequest());
    first.flash("notice", "Kept.");
    const second = await nextRequest(sessions, first);
    expect(second.session.changed).toBe(false);
    const third = await nextRequest(sessions, second.session, second.cookie);
    expect(third.session.takeFlashes()).toEqual([{ kind: "notice", message: "Kept." }]);
  });

  it(`keep the newest ${MAXIMUM_FLASHES} and never the same message twice`, async () => {
    const session = await sessions.read(browserRequest());
    for (const message of ["one", "two", "two", "three", "four"]) session.flash("notice", message);
    session.flash("alert", "four");
    expect(session.takeFlashes()).toEqual([
      { kind: "notice", message: "three" },
      { kind: "notice", message: "four" },
      { kind: "alert", message: "four" },
    ]);
  });

  it(`are cut to ${MAXIMUM_FLASH_MESSAGE_LENGTH} characters, without splitting a character`, async () => {
    const session = await sessions.read(browserRequest());
    session.flash("notice", "😀".repeat(300));
    const { session: next } = await nextRequest(sessions, session);
    const [flash] = next.takeFlashes();
    const characters = Array.from(flash!.message);
    expect(characters).toHaveLength(MAXIMUM_FLASH_MESSAGE_LENGTH);
    expect(characters.at(-1)).toBe("…");
    expect(characters.slice(0, -1).every((character) => character === "😀")).toBe(true);
    const exact = await sessions.read(browserRequest());
    exact.flash("notice", "x".repeat(MAXIMUM_FLASH_MESSAGE_LENGTH));
    expect(exact.takeFlashes()[0]!.message).toBe("x".repeat(MAXIMUM_FLASH_MESSAGE_LENGTH));
  });

  it("carry any text, escaped in the payload and unescaped on reading", async () => {
    const message = `Quote " backslash \\ newline \n tab \t NUL \u0000 <script> é 中 😀`;
    const session = await sessions.read(browserRequest());
    session.flash("alert", message);
    const { session: next } = await nextRequest(sessions, session);
    expect(next.takeFlashes()).toEqual([{ kind: "alert", message }]);
  });

  it("refuse an unknown kind (programmer error)", async () => {
    const session = await sessions.read(browserRequest());
    expect(() => session.flash("error" as "alert", "x")).toThrow(TypeError);
  });
});

describe("the remembered page", () => {
  it("is remembered, read in a later request, then forgotten", async () => {
    const first = await sessions.read(browserRequest());
    expect(first.rememberPage("/posts/7/edit?tab=photos&x=%2F")).toBe(true);
    const second = await nextRequest(sessions, first);
    expect(second.session.takeRememberedPage()).toBe("/posts/7/edit?tab=photos&x=%2F");
    expect(second.session.takeRememberedPage()).toBeUndefined();
    const third = await nextRequest(sessions, second.session, second.cookie);
    expect(third.session.takeRememberedPage()).toBeUndefined();
  });

  it.each([
    "//evil.example",
    "https://evil.example",
    "/\\evil",
    "\\\\evil",
    "/%2F%2Fevil.example",
    "/%5Cevil",
    "/..//evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
    "/ spaces",
    `/${"a".repeat(MAXIMUM_REMEMBERED_PAGE_LENGTH)}`,
  ])("is never %j, and that forgets the page remembered before", async (path) => {
    const session = await sessions.read(browserRequest());
    session.rememberPage("/good");
    expect(session.rememberPage(path)).toBe(false);
    expect(session.takeRememberedPage()).toBeUndefined();
  });

  it(`may be ${MAXIMUM_REMEMBERED_PAGE_LENGTH} characters long`, async () => {
    const path = `/${"a".repeat(MAXIMUM_REMEMBERED_PAGE_LENGTH - 1)}`;
    const session = await sessions.read(browserRequest());
    expect(session.rememberPage(path)).toBe(true);
    const { session: next } = await nextRequest(sessions, session);
    expect(next.takeRememberedPage()).toBe(path);
  });
});

describe("extra values", () => {
  it("are stored, read back and taken once", async () => {
    const session = await sessions.read(browserRequest());
    session.set("oauth_state", "Zm9vYmFy-_abc");
    session.set("pkce_verifier", "a".repeat(128));
    session.set("oauth_state", "replaced.state~1");
    const { session: next, cookie } = await nextRequest(sessions, session);
    expect(next.get("oauth_state")).toBe("replaced.state~1");
    expect(next.take("oauth_state")).toBe("replaced.state~1");
    expect(next.take("oauth_state")).toBeUndefined();
    const { session: after } = await nextRequest(sessions, next, cookie);
    expect(after.get("oauth_state")).toBeUndefined();
    expect(after.get("pkce_verifier")).toBe("a".repeat(128));
  });

  it("refuse invalid names and values, and more than the maximum (programmer errors)", async () => {
    const session = await sessions.read(browserRequest());
    for (const name of ["", "Upper", "1st", "with-dash", "__proto__", "a".repeat(33)]) {
      expect(() => session.set(name, "x")).toThrow(TypeError);
    }
    for (const value of ["", "a b", "a/b", "é", "a".repeat(129)]) {
      expect(() => session.set("state", value)).toThrow(TypeError);
    }
    for (let index = 0; index < MAXIMUM_SESSION_VALUES; index++) session.set(`value_${index}`, "x");
    expect(() => session.set("one_more", "x")).toThrow(RangeError);
    session.set("value_0", "replaced");
    expect(session.get("value_0")).toBe("replaced");
  });
});
