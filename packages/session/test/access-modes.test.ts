import type { Locale } from "@tessera/core";
import { describe, expect, it } from "vitest";
import {
  optionalUser,
  requireConfirmedUser,
  requireUser,
  type Session,
  sessionAuthentication,
  type UserLoader,
} from "../src/index.js";
import { browserRequest, cookiePair, testSessions } from "./fixtures.js";

interface TestUser {
  readonly id: number;
  readonly email: string;
  readonly confirmedAt: string | null;
  readonly credentialsChangedAt?: number;
}

/** Users in a Map, with a count of the lookups made. */
function userDirectory(users: readonly TestUser[]) {
  const byId = new Map(users.map((user) => [user.id, user]));
  const directory = {
    queries: 0,
    load: (async (id) => {
      directory.queries++;
      return byId.get(id);
    }) satisfies UserLoader<TestUser>,
    delete: (id: number) => byId.delete(id),
  };
  return directory;
}

const confirmed: TestUser = { id: 1, email: "ada@example.com", confirmedAt: "2025-01-01 12:00:00" };
const unconfirmed: TestUser = { id: 2, email: "bob@example.com", confirmedAt: null };

const { sessions, clock } = testSessions();

/** The session of a request from a browser where `userId` signed in (or nobody). */
async function sessionFor(request: Request, userId?: number): Promise<Session> {
  if (userId === undefined) return sessions.read(request);
  const login = await sessions.read(browserRequest("http://app.test/login"));
  login.signIn(userId);
  const cookie = cookiePair((await sessions.setCookie(login))!);
  const headers = new Headers(request.headers);
  headers.set("cookie", cookie);
  return sessions.read(new Request(request, { headers }));
}

/** Commits the session onto the refusal and reads what the browser's next request sees. */
async function followRefusal(session: Session, response: Response) {
  const committed = await sessions.commit(session, response);
  const next = await sessions.read(
    browserRequest("http://app.test/login", cookiePair(committed.headers.getSetCookie()[0]!)),
  );
  return { committed, next };
}

describe("requireUser", () => {
  it("gives the signed-in user, loaded with one query", async () => {
    const users = userDirectory([confirmed]);
    const session = await sessionFor(browserRequest("http://app.test/posts"), 1);
    const access = await requireUser(session, browserRequest("http://app.test/posts"), users.load);
    expect(access).toEqual({ ok: true, value: confirmed });
    expect(users.queries).toBe(1);
    expect(session.changed).toBe(false);
  });

  it("GET without a session: 303 to /login, alert, and the page with its query remembered", async () => {
    const users = userDirectory([confirmed]);
    const request = browserRequest("http://app.test/posts/7/edit?tab=photos");
    const session = await sessionFor(request);
    const access = await requireUser(session, request, users.load);
    expect(access.ok).toBe(false);
    if (access.ok) return;
    expect(access.reason).toBe("not-signed-in");
    expect(access.response.status).toBe(303);
    expect(access.response.headers.get("location")).toBe("/login");
    expect(users.queries).toBe(0);

    const { committed, next } = await followRefusal(session, access.response);
    expect(committed.status).toBe(303);
    expect(next.takeFlashes()).toEqual([{ kind: "alert", message: "Please log in to continue." }]);
    expect(next.takeRememberedPage()).toBe("/posts/7/edit?tab=photos");
  });

  it.each(["POST", "PUT", "PATCH", "DELETE", "HEAD"])(
    "%s without a session: 303 to /login with the alert, no page remembered",
    async (method) => {
      const request = browserRequest("http://app.test/posts/7/delete", undefined, { method });
      const session = await sessionFor(request);
      session.rememberPage("/earlier");
      const access = await requireUser(session, request, userDirectory([]).load);
      expect(access.ok).toBe(false);
      if (access.ok) return;
      expect(access.response.status).toBe(303);
      expect(access.response.headers.get("location")).toBe("/login");
      const { next } = await followRefusal(session, access.response);
      expect(next.takeFlashes()).toEqual([
        { kind: "alert", message: "Please log in to continue." },
      ]);
      // The page remembered before stays: this request did not replace it.
      expect(next.takeRememberedPage()).toBe("/earlier");
    },
  );

  it("a GET of a path that is not local remembers nothing", async () => {
    const request = browserRequest("http://app.test//evil.example/x");
    expect(new URL(request.url).pathname).toBe("//evil.example/x");
    const session = await sessionFor(request);
    const access = await requireUser(session, request, userDirectory([]).load);
    expect(access.ok).toBe(false);
    expect(session.takeRememberedPage()).toBeUndefined();
  });

  it("a session whose user was deleted counts as no session, and is cleared", async () => {
    const users = userDirectory([confirmed]);
    const request = browserRequest("http://app.test/account");
    const session = await sessionFor(request, 1);
    users.delete(1);
    const access = await requireUser(session, request, users.load);
    expect(access.ok).toBe(false);
    if (access.ok) return;
    expect(access.reason).toBe("not-signed-in");
    expect(access.response.headers.get("location")).toBe("/login");
    expect(session.userId).toBeUndefined();
    const { next } = await followRefusal(session, access.response);
    expect(next.userId).toBeUndefined();
    expect(next.takeRememberedPage()).toBe("/account");
  });
});

describe("requireConfirmedUser", () => {
  it("gives a confirmed user", async () => {
    const users = userDirectory([confirmed]);
    const request = browserRequest("http://app.test/posts/new");
    const session = await sessionFor(request, 1);
    expect(await requireConfirmedUser(session, request, users.load)).toEqual({
      ok: true,
      value: confirmed,
    });
    expect(users.queries).toBe(1);
  });

  it("sends an unconfirmed user to /account with the documented alert", async () => {
    const users = userDirectory([unconfirmed]);
    const request = browserRequest("http://app.test/posts/new");
    const session = await sessionFor(request, 2);
    const access = await requireConfirmedUser(session, request, users.load);
    expect(access.ok).toBe(false);
    if (access.ok) return;
    expect(access.reason).toBe("unconfirmed");
    expect(access.response.status).toBe(303);
    expect(access.response.headers.get("location")).toBe("/account");
    const { next } = await followRefusal(session, access.response);
    expect(next.userId).toBe(2);
    expect(next.takeFlashes()).toEqual([
      { kind: "alert", message: "Please confirm your email address first." },
    ]);
    expect(next.takeRememberedPage()).toBeUndefined();
  });

  it("sends a visitor without a session to /login, remembering a GET", async () => {
    const request = browserRequest("http://app.test/posts/new");
    const session = await sessionFor(request);
    const access = await requireConfirmedUser(session, request, userDirectory([]).load);
    expect(access.ok).toBe(false);
    if (access.ok) return;
    expect(access.reason).toBe("not-signed-in");
    expect(access.response.headers.get("location")).toBe("/login");
    const { next } = await followRefusal(session, access.response);
    expect(next.takeFlashes()).toEqual([{ kind: "alert", message: "Please log in to continue." }]);
    expect(next.takeRememberedPage()).toBe("/posts/new");
  });
});

describe("optionalUser", () => {
  it("gives the user, or undefined without touching the session", async () => {
    const users = userDirectory([confirmed, unconfirmed]);
    const request = browserRequest("http://app.test/");
    expect(await optionalUser(await sessionFor(request, 2), users.load)).toEqual(unconfirmed);
    const anonymous = await sessionFor(request);
    expect(await optionalUser(anonymous, users.load)).toBeUndefined();
    expect(anonymous.changed).toBe(false);
    expect(users.queries).toBe(1);
  });

  it("signs out a session whose user was deleted", async () => {
    const users = userDirectory([confirmed]);
    const session = await sessionFor(browserRequest("http://app.test/"), 1);
    users.delete(1);
    expect(await optionalUser(session, users.load)).toBeUndefined();
    expect(session.userId).toBeUndefined();
    expect(await sessions.setCookie(session)).toMatch(/^_tessera_session=; Max-Age=0;/);
  });

  it("signs out a session signed in before the user's credentials changed", async () => {
    const signedInAt = clock();
    const session = await sessionFor(browserRequest("http://app.test/"), 1);
    expect(session.signedInAt).toBe(signedInAt);
    const changed = { ...confirmed, credentialsChangedAt: signedInAt + 1_000 };
    expect(await optionalUser(session, userDirectory([changed]).load)).toBeUndefined();
    expect(session.userId).toBeUndefined();
    expect(await sessions.setCookie(session)).toMatch(/^_tessera_session=; Max-Age=0;/);
  });

  it("keeps a session signed in, or renewed, in the second of the change or after it", async () => {
    const start = clock();
    const sameSecond = await sessionFor(browserRequest("http://app.test/"), 1);
    const renewed = await sessionFor(browserRequest("http://app.test/"), 1);
    clock.set(start + 60_000);
    renewed.renewSignIn();
    expect(renewed.signedInAt).toBe(start + 60_000);
    expect(renewed.userId).toBe(1);
    const directory = userDirectory([{ ...confirmed, credentialsChangedAt: start + 60_000 }]);
    expect(await optionalUser(renewed, directory.load)).toEqual(expect.objectContaining({ id: 1 }));
    const changedInItsSecond = userDirectory([{ ...confirmed, credentialsChangedAt: start + 999 }]);
    expect(await optionalUser(sameSecond, changedInItsSecond.load)).toEqual(
      expect.objectContaining({ id: 1 }),
    );
    clock.set(start);
  });
});

describe("the access modes in a locale", () => {
  const pirate: Locale = {
    tag: "x-pirate",
    catalog: {
      "session.login_required": "Come aboard first.",
      "session.confirmation_required": "Prove yer bottle first.",
    },
  };

  it("flash the sign-in alert in the locale given, and through sessionAuthentication", async () => {
    const request = browserRequest("http://app.test/posts");
    const session = await sessionFor(request);
    const access = await requireUser(session, request, userDirectory([]).load, pirate);
    expect(access.ok).toBe(false);
    if (access.ok) return;
    const { next } = await followRefusal(session, access.response);
    expect(next.takeFlashes()).toEqual([{ kind: "alert", message: "Come aboard first." }]);

    const viaContext = await sessionFor(request);
    const authenticate = sessionAuthentication(userDirectory([]).load);
    const refused = await authenticate(request, {
      session: viaContext,
      clientAddress: "203.0.113.7",
      params: {},
      locale: pirate,
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    const after = await followRefusal(viaContext, refused.response);
    expect(after.next.takeFlashes()).toEqual([{ kind: "alert", message: "Come aboard first." }]);
  });

  it("flash the confirmation alert in the locale given", async () => {
    const request = browserRequest("http://app.test/posts");
    const session = await sessionFor(request, unconfirmed.id);
    const access = await requireConfirmedUser(
      session,
      request,
      userDirectory([unconfirmed]).load,
      pirate,
    );
    expect(access.ok).toBe(false);
    if (access.ok) return;
    const { next } = await followRefusal(session, access.response);
    expect(next.takeFlashes()).toEqual([{ kind: "alert", message: "Prove yer bottle first." }]);
  });
});
