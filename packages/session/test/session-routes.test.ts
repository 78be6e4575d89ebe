import type { Route } from "@tessera/http";
import { routeRequests, withMiddleware } from "@tessera/http";
import { describe, expect, it } from "vitest";
import {
  confirmedSessionAuthentication,
  openSession,
  type SessionRouteContext,
  sessionAuthentication,
  startTrackedSession,
} from "../src/index.js";
import { MemoryTrackedSessionStore } from "../src/testing.js";
import { browserRequest, cookiePair, onlySetCookie, testSessions } from "./fixtures.js";

function signInRoutes(): Route<SessionRouteContext>[] {
  return [
    {
      method: "POST",
      path: "/login",
      handle: async (_request, { session }) => {
        session.signIn(7);
        return new Response("in");
      },
    },
    {
      method: "GET",
      path: "/me",
      handle: async (_request, { session }) => new Response(String(session.userId ?? "nobody")),
    },
  ];
}

describe("openSession", () => {
  it("opens the cookie before the handler and writes it back after", async () => {
    const { sessions } = testSessions();
    const handle = routeRequests(withMiddleware(signInRoutes(), openSession(sessions)));
    const login = await handle(
      browserRequest("http://app.test/login", undefined, { method: "POST" }),
    );
    const cookie = onlySetCookie(login!);
    expect(cookie).toMatch(/^_tessera_session=/);
    const me = await handle(browserRequest("http://app.test/me", cookiePair(cookie!)));
    expect(await me?.text()).toBe("7");
    expect(onlySetCookie(me!)).toBeUndefined();
  });

  it("uses a session already in the context and leaves its commit to whoever opened it", async () => {
    const { sessions } = testSessions();
    const [login] = withMiddleware(signInRoutes(), openSession(sessions));
    const request = browserRequest("http://app.test/login", undefined, { method: "POST" });
    const session = await sessions.read(request);
    const response = await login!.handle(request, { params: {}, clientAddress: "x", session });
    expect(session.userId).toBe(7);
    expect(onlySetCookie(response)).toBeUndefined();
  });
});

describe("session cookies with tracked sessions", () => {
  it("sign out a browser whose device row was ended", async () => {
    const store = new MemoryTrackedSessionStore();
    const { sessions, clock } = testSessions({ trackedSessions: store });
    const session = await sessions.read(browserRequest());
    session.signIn(7);
    const tracked = await startTrackedSession(store, session, {
      ipAddress: null,
      userAgent: null,
      clock,
    });
    const cookie = cookiePair((await sessions.setCookie(session))!);
    expect((await sessions.read(browserRequest(undefined, cookie))).userId).toBe(7);
    await store.deleteForUser(7, tracked.id);
    expect((await sessions.read(browserRequest(undefined, cookie))).userId).toBeUndefined();
    expect(sessions.trackedSessions).toBe(store);
  });
});

describe("sessionAuthentication", () => {
  it("gives the signed-in user, or a 303 to /login that remembers the page", async () => {
    const { sessions } = testSessions();
    const users = new Map([[7, { id: 7, confirmedAt: null }]]);
    const authenticate = sessionAuthentication(async (id: number) => users.get(id));
    const confirmed = confirmedSessionAuthentication(async (id: number) => users.get(id));
    const request = browserRequest("http://app.test/posts?page=2");
    const session = await sessions.read(request);
    const context = { params: {}, clientAddress: "x", session };

    const anonymous = await authenticate(request, context);
    expect(anonymous.ok).toBe(false);
    if (!anonymous.ok) expect(anonymous.response.headers.get("location")).toBe("/login");

    session.signIn(7);
    const signedIn = await authenticate(request, context);
    expect(signedIn.ok && signedIn.value).toEqual({ user: { id: 7, confirmedAt: null } });
    const unconfirmed = await confirmed(request, context);
    expect(!unconfirmed.ok && unconfirmed.response.headers.get("location")).toBe("/account");
  });
});
