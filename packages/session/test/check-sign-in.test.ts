// `checkSignIn`: asked by `read` for every signed-in session, never for a visitor's; a refusal
// signs the session out before any route sees it, and the next commit clears the cookie.
import { describe, expect, it } from "vitest";
import type { Session } from "../src/index.js";
import { browserRequest, cookiePair, testSessions } from "./fixtures.js";

describe("checkSignIn", () => {
  it("signs out a session it refuses, keeps one it accepts, and leaves visitors alone", async () => {
    const asked: (number | undefined)[] = [];
    let accept = true;
    const { sessions } = testSessions({
      checkSignIn: async (session: Session) => {
        asked.push(session.userId);
        return accept;
      },
    });
    const first = await sessions.read(browserRequest());
    expect(asked).toEqual([]);
    first.signIn(7);
    const cookie = cookiePair((await sessions.setCookie(first))!);

    const kept = await sessions.read(browserRequest("http://app.test/", cookie));
    expect(kept.userId).toBe(7);
    expect(await sessions.setCookie(kept)).toBeUndefined();

    accept = false;
    const refused = await sessions.read(browserRequest("http://app.test/", cookie));
    expect(refused.userId).toBeUndefined();
    expect(await sessions.setCookie(refused)).toMatch(/Max-Age=0/);
    expect(asked).toEqual([7, 7]);
  });
});
