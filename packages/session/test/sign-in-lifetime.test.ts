import { describe, expect, it } from "vitest";
import { SESSION_LIFETIME_SECONDS } from "../src/index.js";
import { decodeSessionPayload } from "../src/session-payload.js";
import { browserRequest, cookiePair, T0, testSessions } from "./fixtures.js";

const HOUR = 3600;

describe("a sign-in shorter than the default", () => {
  it("ends after its own lifetime, starts now, and reads back through the cookie", async () => {
    const { sessions, clock } = testSessions();
    const session = await sessions.read(browserRequest());
    session.signIn(7, { lifetimeSeconds: HOUR });
    expect(session.signedInUntil).toBe(T0 + HOUR * 1000);
    expect(session.signedInAt).toBe(T0);
    const cookie = cookiePair((await sessions.setCookie(session))!);

    clock.set(T0 + HOUR * 1000 - 1);
    const later = await sessions.read(browserRequest("http://app.test/", cookie));
    expect(later.userId).toBe(7);
    expect(later.signedInAt).toBe(T0);

    clock.set(T0 + HOUR * 1000);
    const ended = await sessions.read(browserRequest("http://app.test/", cookie));
    expect(ended.userId).toBeUndefined();
  });

  it("a remembered one gets a cookie that lives as long as it does", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest());
    session.signIn(7, { rememberMe: true, lifetimeSeconds: HOUR });
    expect(await sessions.setCookie(session)).toMatch(/; Max-Age=3600;/);
  });

  it("renewing it starts the same lifetime again, never the default's", async () => {
    const { sessions, clock } = testSessions();
    const session = await sessions.read(browserRequest());
    session.signIn(7, { lifetimeSeconds: HOUR });
    clock.set(T0 + 60_000);
    session.renewSignIn();
    expect(session.signedInUntil).toBe(T0 + 60_000 + HOUR * 1000);
  });

  it("refuses a lifetime that is not 1 second to two weeks", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest());
    for (const lifetimeSeconds of [0, -1, 1.5, SESSION_LIFETIME_SECONDS + 1, Number.NaN]) {
      expect(() => session.signIn(7, { lifetimeSeconds })).toThrow(RangeError);
    }
    expect(session.userId).toBeUndefined();
  });

  it("a payload whose lifetime is out of range is refused whole", () => {
    const payload = (lifetime: unknown) =>
      new TextEncoder().encode(
        JSON.stringify({ v: 1, user: { id: 7, expiresAt: T0, rememberMe: false, lifetime } }),
      );
    expect(decodeSessionPayload(payload(HOUR))?.signIn).toEqual({
      userId: 7,
      expiresAt: T0,
      rememberMe: false,
      lifetimeSeconds: HOUR,
    });
    for (const lifetime of [0, SESSION_LIFETIME_SECONDS + 1, "3600", 1.5, null]) {
      expect(decodeSessionPayload(payload(lifetime))).toBeUndefined();
    }
  });
});
