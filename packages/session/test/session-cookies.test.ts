import { describe, expect, it } from "vitest";
import {
  createSessionCookies,
  SESSION_LIFETIME_SECONDS,
  type SessionCookies,
  sessionCookieName,
} from "../src/index.js";
import {
  browserRequest,
  COOKIE_NAME,
  cookiePair,
  OLD_SECRET,
  onlySetCookie,
  SECRET,
  T0,
  testSessions,
} from "./fixtures.js";

const LIFETIME_MS = SESSION_LIFETIME_SECONDS * 1000;
const SEALED = "[A-Za-z0-9_-]+";

/** Signs user 7 in on a fresh session and returns the cookie pair the browser keeps. */
async function signedInCookie(
  sessions: SessionCookies,
  options: { rememberMe?: boolean } = {},
  url = "http://app.test/login",
): Promise<string> {
  const session = await sessions.read(browserRequest(url));
  session.signIn(7, options);
  const setCookie = await sessions.setCookie(session);
  return cookiePair(setCookie!);
}

describe("session cookies: round trip", () => {
  it("a signed-in session reads back in the next request, through a real Response", async () => {
    const { sessions } = testSessions();
    const first = await sessions.read(browserRequest("http://app.test/login"));
    expect(first.userId).toBeUndefined();
    first.signIn(42, { rememberMe: true });
    first.flash("notice", "Signed in.");
    first.set("oauth_state", "state-123");
    const response = await sessions.commit(first, new Response("ok", { status: 200 }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");

    const next = await sessions.read(
      browserRequest("http://app.test/", cookiePair(onlySetCookie(response)!)),
    );
    expect(next.userId).toBe(42);
    expect(next.rememberMe).toBe(true);
    expect(next.signedInUntil).toBe(T0 + LIFETIME_MS);
    expect(next.get("oauth_state")).toBe("state-123");
    expect(next.takeFlashes()).toEqual([{ kind: "notice", message: "Signed in." }]);
    expect(next.changed).toBe(true);
  });

  it("writes no Set-Cookie when nothing changed", async () => {
    const { sessions } = testSessions();
    const cookie = await signedInCookie(sessions);
    const session = await sessions.read(browserRequest("http://app.test/", cookie));
    expect(session.userId).toBe(7);
    expect(session.changed).toBe(false);
    expect(session.takeFlashes()).toEqual([]);
    expect(session.get("missing")).toBeUndefined();
    expect(session.take("missing")).toBeUndefined();
    expect(session.takeRememberedPage()).toBeUndefined();
    expect(session.changed).toBe(false);
    expect(await sessions.setCookie(session)).toBeUndefined();
    const response = await sessions.commit(session, new Response("page"));
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("writes nothing for a visitor who had no cookie and still has nothing", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest());
    session.signOut();
    expect(session.changed).toBe(true);
    expect(await sessions.setCookie(session)).toBeUndefined();
  });

  it("copies a response whose headers are immutable, keeping status and body", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest());
    session.flash("notice", "Hello.");
    const immutable = Response.redirect("http://app.test/next", 303);
    expect(() => immutable.headers.set("x", "y")).toThrow(TypeError);
    const committed = await sessions.commit(session, immutable);
    expect(committed).not.toBe(immutable);
    expect(committed.status).toBe(303);
    expect(committed.headers.get("location")).toBe("http://app.test/next");
    expect(onlySetCookie(committed)).toMatch(new RegExp(`^${COOKIE_NAME}=${SEALED}; Path=/`));
  });

  it("refuses a session it did not read (programmer error)", async () => {
    const { sessions } = testSessions();
    const other = testSessions().sessions;
    const session = await other.read(browserRequest());
    await expect(sessions.setCookie(session)).rejects.toThrow(TypeError);
  });
});

describe("session cookies: attributes", () => {
  it("without remember me: a browser-session cookie, HttpOnly, SameSite=Lax, Path=/", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest("http://app.test/login"));
    session.signIn(7);
    expect(await sessions.setCookie(session)).toMatch(
      new RegExp(`^${COOKIE_NAME}=${SEALED}; Path=/; HttpOnly; SameSite=Lax$`),
    );
  });

  it("without remember me over HTTPS: Secure as well", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest("https://app.test/login"));
    session.signIn(7, { rememberMe: false });
    expect(await sessions.setCookie(session)).toMatch(
      new RegExp(`^${COOKIE_NAME}=${SEALED}; Path=/; Secure; HttpOnly; SameSite=Lax$`),
    );
  });

  it("with remember me: Max-Age=1209600", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest("http://app.test/login"));
    session.signIn(7, { rememberMe: true });
    expect(await sessions.setCookie(session)).toMatch(
      new RegExp(`^${COOKIE_NAME}=${SEALED}; Max-Age=1209600; Path=/; HttpOnly; SameSite=Lax$`),
    );
  });

  it("with remember me over HTTPS: Max-Age=1209600 and Secure", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest("https://app.test/login"));
    session.signIn(7, { rememberMe: true });
    expect(await sessions.setCookie(session)).toMatch(
      new RegExp(
        `^${COOKIE_NAME}=${SEALED}; Max-Age=1209600; Path=/; Secure; HttpOnly; SameSite=Lax$`,
      ),
    );
  });

  it("with remember me: exactly Max-Age=1209600 however late the cookie is written", async () => {
    // A clock that moves on 1 ms at every reading, as a real one does between sign-in and commit.
    let now = T0;
    const { sessions } = testSessions({ clock: () => now++ });
    const session = await sessions.read(browserRequest("http://app.test/login"));
    session.signIn(7, { rememberMe: true });
    now += 750;
    expect(await sessions.setCookie(session)).toMatch(/; Max-Age=1209600; Path=\//);
  });

  it("with remember me, on the real clock: Max-Age=1209600", async () => {
    const { sessions } = testSessions({ clock: Date.now });
    for (let attempt = 0; attempt < 3; attempt++) {
      const session = await sessions.read(browserRequest("http://app.test/login"));
      session.signIn(7, { rememberMe: true });
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(await sessions.setCookie(session)).toMatch(/; Max-Age=1209600; Path=\//);
    }
  });

  it("secureCookies may decide per request (a trusted proxy's X-Forwarded-Proto)", async () => {
    const { sessions } = testSessions({
      secureCookies: (request) => request.headers.get("x-forwarded-proto") === "https",
    });
    const behindTls = await sessions.read(
      browserRequest("http://app.test/login", undefined, {
        headers: { "x-forwarded-proto": "https" },
      }),
    );
    behindTls.signIn(7);
    expect(await sessions.setCookie(behindTls)).toMatch(/; Path=\/; Secure; HttpOnly;/);
    const plain = await sessions.read(browserRequest("http://app.test/login"));
    plain.signIn(7);
    expect(await sessions.setCookie(plain)).not.toContain("Secure");
  });

  it("secureCookies forces Secure on (TLS ended at a proxy) or off", async () => {
    const forced = testSessions({ secureCookies: true }).sessions;
    const onPlainHttp = await forced.read(browserRequest("http://app.test/login"));
    onPlainHttp.signIn(7);
    expect(await forced.setCookie(onPlainHttp)).toMatch(/; Path=\/; Secure; HttpOnly;/);

    const never = testSessions({ secureCookies: false }).sessions;
    const onHttps = await never.read(browserRequest("https://app.test/login"));
    onHttps.signIn(7);
    expect(await never.setCookie(onHttps)).not.toContain("Secure");
  });

  it("a remembered cookie rewritten later keeps only the sign-in's remaining lifetime", async () => {
    const { sessions, clock } = testSessions();
    const cookie = await signedInCookie(sessions, { rememberMe: true });
    clock.set(T0 + 86_400_000 + 500);
    const session = await sessions.read(browserRequest("http://app.test/", cookie));
    session.flash("notice", "Saved.");
    expect(await sessions.setCookie(session)).toMatch(/; Max-Age=1123199; Path=\//);
    expect(session.signedInUntil).toBe(T0 + LIFETIME_MS);
  });

  it("names the cookie after the app and refuses names unfit for a cookie", () => {
    expect(sessionCookieName("tessera")).toBe("_tessera_session");
    expect(sessionCookieName("my-app_2")).toBe("_my-app_2_session");
    expect(testSessions({ appName: "shop" }).sessions.cookieName).toBe("_shop_session");
    for (const bad of ["", "-app", "_app", "my app", "app;x", "app=1", "ünï", "a".repeat(33)]) {
      expect(() => sessionCookieName(bad)).toThrow(RangeError);
      expect(() => createSessionCookies({ appName: bad, secrets: { current: SECRET } })).toThrow(
        RangeError,
      );
    }
  });

  it("refuses a secret shorter than 32 characters at startup, naming the option", () => {
    const advice =
      "pass { current: process.env.SECRET_KEY_BASE } with a secret of 32 or more characters (generate one with `openssl rand -hex 32`)";
    expect(() =>
      createSessionCookies({ appName: "tessera", secrets: { current: "short" } }),
    ).toThrow(
      new RangeError(`createSessionCookies: \`secrets.current\` is 5 characters long: ${advice}`),
    );
    expect(() =>
      createSessionCookies({ appName: "tessera", secrets: { current: SECRET, previous: "old" } }),
    ).toThrow(
      new RangeError(`createSessionCookies: \`secrets.previous\` is 3 characters long: ${advice}`),
    );
  });

  it("names the option when the guide's process.env.SECRET_KEY_BASE! is unset", () => {
    const advice =
      "pass { current: process.env.SECRET_KEY_BASE } with a secret of 32 or more characters (generate one with `openssl rand -hex 32`)";
    const unset = process.env.TESSERA_NEVER_SET!;
    expect(() => createSessionCookies({ appName: "tessera", secrets: { current: unset } })).toThrow(
      new TypeError(`createSessionCookies: \`secrets.current\` is missing: ${advice}`),
    );
    const noSecrets = { appName: "tessera" } as Parameters<typeof createSessionCookies>[0];
    expect(() => createSessionCookies(noSecrets)).toThrow(
      new TypeError(`createSessionCookies: \`secrets\` is missing: ${advice}`),
    );
    const rotated = { current: SECRET, previous: process.env.TESSERA_NEVER_SET };
    expect(createSessionCookies({ appName: "tessera", secrets: rotated }).cookieName).toBe(
      "_tessera_session",
    );
  });
});

describe("session cookies: expiry, checked on every request", () => {
  for (const rememberMe of [false, true]) {
    it(`${rememberMe ? "with" : "without"} remember me: signed in until 1209600 s, out at exactly 1209600 s`, async () => {
      const { sessions, clock } = testSessions();
      const cookie = await signedInCookie(sessions, { rememberMe });

      clock.set(T0 + LIFETIME_MS - 1);
      const lastMoment = await sessions.read(browserRequest("http://app.test/", cookie));
      expect(lastMoment.userId).toBe(7);
      expect(lastMoment.changed).toBe(false);

      clock.set(T0 + LIFETIME_MS);
      const expired = await sessions.read(browserRequest("http://app.test/", cookie));
      expect(expired.userId).toBeUndefined();
      expect(expired.signedInUntil).toBeUndefined();
      expect(expired.rememberMe).toBe(false);
      // The cookie now holds nothing: the next response deletes it.
      expect(await sessions.setCookie(expired)).toBe(
        `${COOKIE_NAME}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax`,
      );

      clock.set(T0 + 10 * LIFETIME_MS);
      expect(
        (await sessions.read(browserRequest("http://app.test/", cookie))).userId,
      ).toBeUndefined();
    });
  }

  it("an expired sign-in drops only the user: a waiting flash survives", async () => {
    const { sessions, clock } = testSessions();
    const first = await sessions.read(browserRequest());
    first.signIn(7);
    first.flash("notice", "Still here.");
    const cookie = cookiePair((await sessions.setCookie(first))!);
    clock.set(T0 + LIFETIME_MS);
    const session = await sessions.read(browserRequest("http://app.test/", cookie));
    expect(session.userId).toBeUndefined();
    const rewritten = cookiePair((await sessions.setCookie(session))!);
    const next = await sessions.read(browserRequest("http://app.test/", rewritten));
    expect(next.userId).toBeUndefined();
    expect(next.takeFlashes()).toEqual([{ kind: "notice", message: "Still here." }]);
  });

  it("the expiry is fixed at sign-in: activity does not extend it", async () => {
    const { sessions, clock } = testSessions();
    let cookie = await signedInCookie(sessions);
    for (let day = 1; day < 14; day++) {
      clock.set(T0 + day * 86_400_000);
      const session = await sessions.read(browserRequest("http://app.test/", cookie));
      expect(session.userId).toBe(7);
      session.flash("notice", `Day ${day}.`);
      cookie = cookiePair((await sessions.setCookie(session))!);
    }
    clock.set(T0 + LIFETIME_MS);
    expect(
      (await sessions.read(browserRequest("http://app.test/", cookie))).userId,
    ).toBeUndefined();
  });
});

describe("session cookies: sign-in and logout", () => {
  it("sign-in empties the old session first and keeps a flash set after it", async () => {
    const { sessions } = testSessions();
    const before = await sessions.read(browserRequest());
    before.signIn(3, { rememberMe: true });
    before.flash("alert", "Old alert.");
    before.rememberPage("/posts/9");
    before.set("oauth_state", "old-state");
    const oldCookie = cookiePair((await sessions.setCookie(before))!);

    const login = await sessions.read(browserRequest("http://app.test/login", oldCookie));
    const page = login.takeRememberedPage();
    expect(page).toBe("/posts/9");
    login.signIn(8);
    login.flash("notice", "Signed in.");
    const cookie = cookiePair((await sessions.setCookie(login))!);

    const after = await sessions.read(browserRequest("http://app.test/posts/9", cookie));
    expect(after.userId).toBe(8);
    expect(after.rememberMe).toBe(false);
    expect(after.get("oauth_state")).toBeUndefined();
    expect(after.takeRememberedPage()).toBeUndefined();
    expect(after.takeFlashes()).toEqual([{ kind: "notice", message: "Signed in." }]);
  });

  it("sign-in refuses an id that is not a positive safe integer", async () => {
    const { sessions } = testSessions();
    const session = await sessions.read(browserRequest());
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 53, Number.POSITIVE_INFINITY]) {
      expect(() => session.signIn(bad)).toThrow(TypeError);
    }
    expect(session.changed).toBe(false);
  });

  it("logout deletes the cookie", async () => {
    const { sessions } = testSessions();
    const cookie = await signedInCookie(sessions, { rememberMe: true }, "https://app.test/login");
    const session = await sessions.read(browserRequest("https://app.test/logout", cookie));
    session.signOut();
    expect(session.userId).toBeUndefined();
    const response = await sessions.commit(
      session,
      new Response(null, { status: 303, headers: { Location: "/" } }),
    );
    expect(onlySetCookie(response)).toBe(
      `${COOKIE_NAME}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; Secure; HttpOnly; SameSite=Lax`,
    );
  });

  it("after logout a new session cookie may carry a flash, without the user", async () => {
    const { sessions } = testSessions();
    const cookie = await signedInCookie(sessions, { rememberMe: true });
    const session = await sessions.read(browserRequest("http://app.test/logout", cookie));
    session.signOut();
    session.flash("notice", "Signed out.");
    const setCookie = (await sessions.setCookie(session))!;
    // A browser-session cookie now: it replaces the remembered one, Max-Age and all.
    expect(setCookie).toMatch(
      new RegExp(`^${COOKIE_NAME}=${SEALED}; Path=/; HttpOnly; SameSite=Lax$`),
    );
    const next = await sessions.read(browserRequest("http://app.test/", cookiePair(setCookie)));
    expect(next.userId).toBeUndefined();
    expect(next.takeFlashes()).toEqual([{ kind: "notice", message: "Signed out." }]);
  });
});

describe("session cookies: secret rotation", () => {
  const oldSessions = testSessions({ secrets: { current: OLD_SECRET } }).sessions;

  it("reads a cookie sealed under SECRET_KEY_BASE_PREVIOUS while it is set", async () => {
    const cookie = await signedInCookie(oldSessions);
    const rotated = testSessions({ secrets: { current: SECRET, previous: OLD_SECRET } }).sessions;
    const session = await rotated.read(browserRequest("http://app.test/", cookie));
    expect(session.userId).toBe(7);

    // A rewrite seals under the current secret, which the ring without the old one reads.
    session.flash("notice", "Rewritten.");
    const rewritten = cookiePair((await rotated.setCookie(session))!);
    const currentOnly = testSessions({ secrets: { current: SECRET } }).sessions;
    expect((await currentOnly.read(browserRequest("http://app.test/", rewritten))).userId).toBe(7);
  });

  it("does not read it once the previous secret is dropped", async () => {
    const cookie = await signedInCookie(oldSessions);
    const currentOnly = testSessions({ secrets: { current: SECRET } }).sessions;
    const session = await currentOnly.read(browserRequest("http://app.test/", cookie));
    expect(session.userId).toBeUndefined();
    expect(await currentOnly.setCookie(session)).toMatch(/^_tessera_session=; Max-Age=0;/);
  });
});

describe("session cookies: repeated cookies", () => {
  it("two cookies of that name in one header: the first wins", async () => {
    const { sessions } = testSessions();
    const seven = await signedInCookie(sessions);
    const other = await sessions.read(browserRequest());
    other.signIn(9);
    const nine = cookiePair((await sessions.setCookie(other))!);
    const session = await sessions.read(browserRequest("http://app.test/", `${seven}; ${nine}`));
    expect(session.userId).toBe(7);
    const reversed = await sessions.read(browserRequest("http://app.test/", `${nine}; ${seven}`));
    expect(reversed.userId).toBe(9);
  });

  it("repeated Cookie headers, joined with a comma (Fetch) or a semicolon (Node): the first wins", async () => {
    const { sessions } = testSessions();
    const seven = await signedInCookie(sessions);
    const other = await sessions.read(browserRequest());
    other.signIn(9);
    const nine = cookiePair((await sessions.setCookie(other))!);
    for (const header of [`theme=dark, ${seven}, ${nine}`, `${seven},${nine}; theme=dark`]) {
      expect((await sessions.read(browserRequest("http://app.test/", header))).userId).toBe(7);
    }
    const headers = new Headers();
    headers.append("cookie", `theme=dark; ${seven}`);
    headers.append("cookie", nine);
    expect((await sessions.read(new Request("http://app.test/", { headers }))).userId).toBe(7);
  });

  it("finds its cookie among others, quoted or not", async () => {
    const { sessions } = testSessions();
    const [name, value] = (await signedInCookie(sessions)).split("=") as [string, string];
    const header = `a=1; ${name}="${value}"; b=2`;
    expect((await sessions.read(browserRequest("http://app.test/", header))).userId).toBe(7);
  });
});
