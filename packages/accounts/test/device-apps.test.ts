// Apps (refresh token families) in the device list: on /account/sessions under the browsers,
// and in the JSON list at /api/auth/sessions, each ended by its user only, over a SQLite file
// with the real stores, session cookies, JWTs and refresh tokens.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, SqlUserStore, sqlAccountStores } from "@tessera/accounts/sql";
import {
  createApiKey,
  createBearerAuthenticator,
  createJwtIssuer,
  refreshTokens,
} from "@tessera/bearer";
import { SqlRefreshTokenStore } from "@tessera/bearer/sql";
import { formatTimestamp } from "@tessera/core";
import { escapeHtml, type Route, routeRequests } from "@tessera/http";
import { createRateLimiter, MemoryRateLimitStore } from "@tessera/ratelimit";
import { createSessionCookies, type MaybeSessionContext } from "@tessera/session";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { accountEvents } from "../src/account-hooks.js";
import { auditTrail } from "../src/audit/audit-trail.js";
import {
  htmlSessionRoutes,
  otherSessionsEndedMessage,
} from "../src/devices/html-session-routes.js";
import { jsonSessionRoutes } from "../src/devices/json-session-routes.js";
import { defaultSessionPages } from "../src/devices/sessions-page.js";
import { defaultAccountPages } from "../src/html/account-pages.js";
import { htmlAccountRoutes } from "../src/users/html-account-routes.js";
import { CHROME, deviceListLayout, FIREFOX } from "./device-list-fixtures.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-device-apps-"));
const SECRET = "s".repeat(32);
const PASSWORD = "correct horse battery";
const NOTES_APP = "TesseraNotes/2.1 (iPhone; iOS 17.4)";
let now = Date.UTC(2026, 10, 22, 9, 0, 0);
const clock = () => now;

const layout = deviceListLayout;

/**
 * Sign-up and login pages, the device routes with the refresh token store, and the JSON device
 * routes, on one SQLite file; `plainPage` is the device routes without the store.
 */
async function startApp() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  const stores = sqlAccountStores(database);
  const { trackedSessions, apiKeys } = stores;
  // The SQL store itself, whose administration (`endSignIns`) a test uses.
  const users = new SqlUserStore(database);
  const refreshStore = new SqlRefreshTokenStore(database);
  const refresh = refreshTokens({
    store: refreshStore,
    secretKeyBase: { current: SECRET },
    clock,
  });
  const sessions = createSessionCookies({
    appName: "tessera",
    secrets: { current: SECRET },
    clock,
    trackedSessions,
  });
  const jwt = createJwtIssuer({ secrets: { current: SECRET }, clock });
  const bearer = createBearerAuthenticator({
    jwt,
    apiKeys,
    findUser: (id) => users.findById(id),
    credentialsChangedAt: (user) => user.credentialsChangedAt,
    // The operator of these tests is always vouched for: only the device routes judge actors.
    checkActor: async () => true,
    clock,
  });
  const events = accountEvents({ audit: auditTrail(stores.auditLog, clock) });
  const accountPages = htmlAccountRoutes({
    users,
    sessions,
    emailedTokens: stores.emailedTokens,
    mailer: undefined,
    appUrl: "http://app.example",
    rateLimiter: createRateLimiter({ store: new MemoryRateLimitStore(), limit: 1000, clock }),
    pages: defaultAccountPages(layout),
    clock,
    passwords: { iterations: 1000 },
  });
  const deviceOptions = { users, sessions, pages: defaultSessionPages(layout), clock, events };
  const handle = (routes: Route<MaybeSessionContext>[]) => {
    const route = routeRequests(routes);
    return async (request: Request, clientAddress: string) => {
      const response = await route(request, { clientAddress });
      if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
      return response;
    };
  };
  return {
    database,
    users,
    trackedSessions,
    apiKeys,
    refreshStore,
    refresh,
    jwt,
    bearer,
    app: handle([
      ...accountPages,
      ...htmlSessionRoutes({ ...deviceOptions, refreshTokens: refreshStore }),
      ...jsonSessionRoutes({ bearer, trackedSessions, refreshTokens: refreshStore, events, clock }),
    ]),
    plainPage: handle([...accountPages, ...htmlSessionRoutes(deviceOptions)]),
    auditRows: (userId: number) =>
      database.all<{ type: string; details: string }>(
        "SELECT type, details FROM audit_events WHERE user_id = ? ORDER BY id",
        [userId],
      ),
    stop: () => database.close(),
  };
}

type TestApp = Awaited<ReturnType<typeof startApp>>;
type Handle = TestApp["app"];

/** A browser: its User-Agent, its address, and a jar for the session cookie. */
class Browser {
  cookie: string | undefined;

  constructor(
    private readonly handle: Handle,
    private readonly userAgent: string,
    private readonly address: string,
  ) {}

  async request(method: "GET" | "POST", path: string, form?: Record<string, string>) {
    const headers: Record<string, string> = { "user-agent": this.userAgent };
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    if (this.cookie) headers.cookie = this.cookie;
    const response = await this.handle(
      new Request(`http://app.example${path}`, {
        method,
        headers,
        body: form ? new URLSearchParams(form).toString() : null,
      }),
      this.address,
    );
    for (const setCookie of response.headers.getSetCookie()) {
      this.cookie = /Max-Age=0/.test(setCookie) ? undefined : setCookie.split(";")[0];
    }
    return {
      status: response.status,
      location: response.headers.get("location"),
      html: await response.text(),
    };
  }

  get = (path: string) => this.request("GET", path);
  post = (path: string, form: Record<string, string> = {}) => this.request("POST", path, form);
}

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
// Each test starts on the next whole hour: its times are its own, and no device it signs in
// was seen within the hour before (the last-seen time moves at most once an hour).
beforeEach(() => {
  now = Math.ceil((now + 1) / 3_600_000) * 3_600_000;
});
afterAll(() => {
  app.stop();
  rmSync(folder, { recursive: true, force: true });
});

let accounts = 0;

/** Signs a new user up in the first browser and in with the same account in the others. */
async function signedIn(...browsers: Browser[]) {
  const email = `user${++accounts}@example.com`;
  const [first, ...others] = browsers;
  expect((await first!.post("/signup", { email, password: PASSWORD })).status).toBe(303);
  for (const browser of others) {
    expect((await browser.post("/login", { email, password: PASSWORD })).status).toBe(303);
  }
  const user = await app.users.findByEmail(email);
  return { email, id: user!.id };
}

/** An app's sign-in for the user: a new refresh token family, and its id and first token. */
async function appSignIn(
  userId: number,
  userAgent: string | null = NOTES_APP,
  ipAddress = "198.51.100.20",
) {
  const { refreshToken } = await app.refresh.issue({
    userId,
    authentication: { at: now, factors: ["password", "totp"] },
    userAgent,
    ipAddress,
  });
  const [newest] = await app.refreshStore.listFamilies(userId, now);
  return { id: newest!.id, refreshToken };
}

const firefox = () => new Browser(app.app, FIREFOX, "203.0.113.7");
const chrome = () => new Browser(app.app, CHROME, "198.51.100.2");

/** The app rows of the devices page: the label, and the family id its button ends. */
function appRows(html: string) {
  return [
    ...html.matchAll(
      /<th scope="row" id="app-(\d+)">([^<]*)<\/th>[\s\S]*?action="\/account\/sessions\/apps\/(\d+)\/delete"/g,
    ),
  ].map((match) => ({ id: Number(match[1]), label: match[2], action: Number(match[3]) }));
}

/** A time as the JSON API writes it, and as the page's `<time datetime>` holds it. */
const stamp = (epochMs: number) => formatTimestamp(epochMs);
const datetime = (epochMs: number) => `${stamp(epochMs).replace(" ", "T")}Z`;

/** Calls the JSON API with a bearer token (or none). */
async function callJson(method: "GET" | "DELETE", path: string, bearer?: string) {
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  return app.app(new Request(`http://app.example${path}`, { method, headers }), "192.0.2.1");
}

async function tokenFor(userId: number, actor?: string) {
  const authentication = { at: now, factors: ["password"], ...(actor ? { actor } : {}) };
  return (await app.jwt.issue(userId, authentication)).token;
}

async function errorCode(response: Response, status: number) {
  expect(response.status).toBe(status);
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe("apps on the signed-in devices page", () => {
  it("lists the user's apps under the browsers: user agent, address, times, factors", async () => {
    const browser = firefox();
    const { id } = await signedIn(browser);
    const signedInAt = now;
    const notes = await appSignIn(id);
    now += 60_000;
    const anonymous = await appSignIn(id, null, "2001:db8::5");
    now += 60_000;
    expect((await app.refresh.rotate(notes.refreshToken)).ok).toBe(true);

    const page = await browser.get("/account/sessions");
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h2 id="apps-title">Apps</h2>');
    expect(appRows(page.html)).toEqual([
      { id: anonymous.id, label: "Unknown app", action: anonymous.id },
      { id: notes.id, label: NOTES_APP, action: notes.id },
    ]);
    expect(page.html).toContain("<td>198.51.100.20</td>");
    expect(page.html).toContain("<td>2001:db8::5</td>");
    expect(page.html).toContain("<td>Password + Authenticator code</td>");
    // The notes app: signed in at the start, last used at its refresh two minutes later.
    const notesRow = page.html.slice(page.html.indexOf(`id="app-${notes.id}"`));
    expect(notesRow).toMatch(
      new RegExp(
        `<td><time datetime="${datetime(signedInAt)}">[^<]*</time></td>\n<td><time datetime="${datetime(now)}">${stamp(now)} UTC</time></td>`,
      ),
    );
    // Apps are other devices: the button that ends them all is there with one browser only.
    expect(page.html).toContain('action="/account/sessions/others/delete"');
  });

  it("lists no one else's apps, and the page without the store is as before", async () => {
    const ada = firefox();
    const { id: adaId } = await signedIn(ada);
    const { id: bobId } = await signedIn(chrome());
    await appSignIn(bobId);
    expect((await ada.get("/account/sessions")).html).not.toContain("Apps");

    await appSignIn(adaId);
    const plain = new Browser(app.plainPage, FIREFOX, "203.0.113.7");
    plain.cookie = ada.cookie;
    const page = await plain.get("/account/sessions");
    expect(page.status).toBe(200);
    expect(page.html).not.toContain("Apps");
    expect(page.html).not.toContain("others/delete");
    await expect(plain.post("/account/sessions/apps/1/delete")).rejects.toThrow("no route");
  });

  it("signs an app out: its refresh token is then refused, the flash says so, it is audited", async () => {
    const browser = firefox();
    const { id } = await signedIn(browser);
    const notes = await appSignIn(id);
    const kept = await appSignIn(id, "Other/1.0");

    const ended = await browser.post(`/account/sessions/apps/${notes.id}/delete`);
    expect(ended).toMatchObject({ status: 303, location: "/account/sessions" });
    const page = await browser.get("/account/sessions");
    expect(page.html).toContain(`<p class="flash-notice">The app was signed out.</p>`);
    expect(appRows(page.html).map((row) => row.id)).toEqual([kept.id]);
    expect(await app.refresh.rotate(notes.refreshToken)).toEqual({ ok: false, reason: "revoked" });
    expect((await app.refresh.rotate(kept.refreshToken)).ok).toBe(true);
    expect((await browser.get("/account")).status).toBe(200);

    const audited = (await app.auditRows(id)).filter((row) => row.type === "user.session_revoked");
    expect(audited.map((row) => JSON.parse(row.details))).toEqual([
      { refresh_family_id: notes.id },
    ]);
    // Ended already: a second time finds nothing.
    expect((await browser.post(`/account/sessions/apps/${notes.id}/delete`)).status).toBe(404);
  });

  it("escapes what the app sent", async () => {
    const browser = firefox();
    const { id } = await signedIn(browser);
    await appSignIn(id, `"><script>alert(1)</script>`, "<b>");
    const page = await browser.get("/account/sessions");
    expect(page.html).not.toContain("<script>");
    expect(page.html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</th>");
    expect(page.html).toContain("<td>&lt;b&gt;</td>");
  });

  it("answers 404 for another user's app, which stays signed in", async () => {
    const ada = firefox();
    await signedIn(ada);
    const { id: bobId } = await signedIn(chrome());
    const bobsApp = await appSignIn(bobId);

    const refused = await ada.post(`/account/sessions/apps/${bobsApp.id}/delete`);
    expect(refused.status).toBe(404);
    expect(refused.html).toContain("There is no such session signed in to your account.");
    for (const bad of ["abc", "0", "01", "-1", "99999999999999999999"]) {
      expect((await ada.post(`/account/sessions/apps/${bad}/delete`)).status).toBe(404);
    }
    expect((await app.refresh.rotate(bobsApp.refreshToken)).ok).toBe(true);
    expect(await app.auditRows(bobId)).not.toContainEqual(
      expect.objectContaining({ type: "user.session_revoked" }),
    );
  });

  it("signs the apps out with the other devices, and counts them", async () => {
    const here = firefox();
    const there = chrome();
    const { id } = await signedIn(here, there);
    const apps = [await appSignIn(id), await appSignIn(id, "Other/1.0")];
    const { id: bobId } = await signedIn(chrome());
    const bobsApp = await appSignIn(bobId);

    expect(await here.post("/account/sessions/others/delete")).toMatchObject({
      status: 303,
      location: "/account/sessions",
    });
    const page = await here.get("/account/sessions");
    expect(page.html).toContain(
      `<p class="flash-notice">${escapeHtml(otherSessionsEndedMessage(3))}</p>`,
    );
    expect(appRows(page.html)).toEqual([]);
    expect(page.html).not.toContain("Apps");
    for (const { refreshToken } of apps) {
      expect(await app.refresh.rotate(refreshToken)).toEqual({ ok: false, reason: "revoked" });
    }
    expect((await there.get("/account")).location).toBe("/login");
    expect((await app.refresh.rotate(bobsApp.refreshToken)).ok).toBe(true);
    const audited = (await app.auditRows(id)).filter((row) => row.type === "user.session_revoked");
    expect(audited.map((row) => JSON.parse(row.details))).toEqual([
      { others: 3, refresh_families: 2 },
    ]);
  });

  it("leaves out the apps signed in before the credentials changed", async () => {
    const browser = firefox();
    const { id, email } = await signedIn(browser);
    const before = await appSignIn(id, "Before/1.0");
    now += 2_000;
    expect(await app.users.endSignIns(id, now)).toBe(true);
    now += 2_000;
    const after = await appSignIn(id, "After/1.0");
    // The change signed the browser out too: it signs in again.
    expect((await browser.post("/login", { email, password: PASSWORD })).status).toBe(303);

    const page = await browser.get("/account/sessions");
    expect(appRows(page.html).map((row) => row.label)).toEqual(["After/1.0"]);
    const token = await tokenFor(id);
    const listed = (await (await callJson("GET", "/api/auth/sessions", token)).json()) as {
      id: string;
    }[];
    expect(listed.map((session) => session.id)).toContain(`app-${after.id}`);
    expect(listed.map((session) => session.id)).not.toContain(`app-${before.id}`);
    expect((await browser.post(`/account/sessions/apps/${before.id}/delete`)).status).toBe(404);
    expect((await callJson("DELETE", `/api/auth/sessions/app-${before.id}`, token)).status).toBe(
      404,
    );
  });
});

describe("the JSON device list", () => {
  it("lists the browsers, most recently seen first, then the apps, newest first", async () => {
    const first = firefox();
    const second = chrome();
    const { id, email } = await signedIn(first);
    const start = now;
    const at = (minutes: number) => stamp(start + minutes * 60_000);
    now += 60_000;
    expect((await second.post("/login", { email, password: PASSWORD })).status).toBe(303);
    now += 60_000;
    const older = await appSignIn(id, "Older/1.0", "198.51.100.30");
    now += 60_000;
    const newer = await appSignIn(id, null, "198.51.100.31");
    now += 60_000;
    const [secondRow, firstRow] = await app.trackedSessions.listForUser(id, now);

    const answer = await callJson("GET", "/api/auth/sessions", await tokenFor(id));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual([
      {
        id: `browser-${secondRow!.id}`,
        kind: "browser",
        user_agent: CHROME,
        ip_address: "198.51.100.2",
        created_at: at(1),
        last_used_at: at(1),
        factors: secondRow!.factors,
      },
      {
        id: `browser-${firstRow!.id}`,
        kind: "browser",
        user_agent: FIREFOX,
        ip_address: "203.0.113.7",
        created_at: at(0),
        last_used_at: at(0),
        factors: firstRow!.factors,
      },
      {
        id: `app-${newer.id}`,
        kind: "app",
        user_agent: null,
        ip_address: "198.51.100.31",
        created_at: at(3),
        last_used_at: at(3),
        factors: ["password", "totp"],
      },
      {
        id: `app-${older.id}`,
        kind: "app",
        user_agent: "Older/1.0",
        ip_address: "198.51.100.30",
        created_at: at(2),
        last_used_at: at(2),
        factors: ["password", "totp"],
      },
    ]);
  });

  it("lets an API key list but not end, and answers 401 without a bearer", async () => {
    const browser = firefox();
    const { id } = await signedIn(browser);
    const notes = await appSignIn(id);
    const created = await createApiKey(app.apiKeys, { userId: id, name: "ci" }, clock);
    if (!created.ok) throw new Error("no API key");
    const { key } = created.value;

    const listed = await callJson("GET", "/api/auth/sessions", key);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { id: string }[]).map((session) => session.id)).toContain(
      `app-${notes.id}`,
    );
    const refused = await callJson("DELETE", `/api/auth/sessions/app-${notes.id}`, key);
    expect(await errorCode(refused, 403)).toBe("api_key_not_allowed");
    expect((await app.refresh.rotate(notes.refreshToken)).ok).toBe(true);

    expect((await callJson("GET", "/api/auth/sessions")).status).toBe(401);
    expect((await callJson("DELETE", `/api/auth/sessions/app-${notes.id}`)).status).toBe(401);
  });

  it("refuses an operator acting as the user, who may list", async () => {
    const { id } = await signedIn(firefox());
    const notes = await appSignIn(id);
    const acting = await tokenFor(id, "999");
    expect((await callJson("GET", "/api/auth/sessions", acting)).status).toBe(200);
    const refused = await callJson("DELETE", `/api/auth/sessions/app-${notes.id}`, acting);
    expect(await errorCode(refused, 403)).toBe("impersonation_not_allowed");
    expect((await app.refresh.rotate(notes.refreshToken)).ok).toBe(true);
  });

  it("ends a browser and an app by their ids, audited, and finds them no more", async () => {
    const here = firefox();
    const { id } = await signedIn(here);
    const notes = await appSignIn(id);
    const [row] = await app.trackedSessions.listForUser(id, now);
    const token = await tokenFor(id);

    const endedApp = await callJson("DELETE", `/api/auth/sessions/app-${notes.id}`, token);
    expect(endedApp.status).toBe(204);
    expect(await endedApp.text()).toBe("");
    expect(await app.refresh.rotate(notes.refreshToken)).toEqual({ ok: false, reason: "revoked" });

    const endedBrowser = await callJson("DELETE", `/api/auth/sessions/browser-${row!.id}`, token);
    expect(endedBrowser.status).toBe(204);
    expect(await here.get("/account")).toMatchObject({ status: 303, location: "/login" });

    const listed = await callJson("GET", "/api/auth/sessions", token);
    expect(await listed.json()).toEqual([]);
    for (const path of [`app-${notes.id}`, `browser-${row!.id}`]) {
      const again = await callJson("DELETE", `/api/auth/sessions/${path}`, token);
      expect(await errorCode(again, 404)).toBe("not_found");
    }
    const audited = (await app.auditRows(id)).filter((row) => row.type === "user.session_revoked");
    expect(audited.map((row) => JSON.parse(row.details))).toEqual([
      { refresh_family_id: notes.id },
      { session_id: row!.id },
    ]);
  });

  it("answers 404 for malformed ids and for another user's devices, which stay", async () => {
    const { id: adaId } = await signedIn(firefox());
    const bob = chrome();
    const { id: bobId } = await signedIn(bob);
    const bobsApp = await appSignIn(bobId);
    const [bobsRow] = await app.trackedSessions.listForUser(bobId, now);
    const token = await tokenFor(adaId);

    for (const bad of [
      "app-",
      "app-0",
      "app-01",
      "app--1",
      "app-1.5",
      "x-1",
      "1",
      "browser-9999999999999999999",
      "browser-1-2",
      `app-${bobsApp.id}`,
      `browser-${bobsRow!.id}`,
    ]) {
      const refused = await callJson("DELETE", `/api/auth/sessions/${bad}`, token);
      expect({ bad, code: await errorCode(refused, 404) }).toEqual({ bad, code: "not_found" });
    }
    expect((await app.refresh.rotate(bobsApp.refreshToken)).ok).toBe(true);
    expect((await bob.get("/account")).status).toBe(200);
    expect(await app.auditRows(adaId)).not.toContainEqual(
      expect.objectContaining({ type: "user.session_revoked" }),
    );
  });

  it("mounts nothing without either store", () => {
    expect(jsonSessionRoutes({ bearer: app.bearer, events: undefined })).toEqual([]);
  });
});
