import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import {
  authTokensMigration,
  SqlEmailedTokenStore,
  SqlUserStore,
  userMigrations,
} from "@tessera/accounts/sql";
import { escapeHtml, routeRequests } from "@tessera/http";
import { createRateLimiter, MemoryRateLimitStore } from "@tessera/ratelimit";
import { createSessionCookies } from "@tessera/session";
import {
  SqlTrackedSessionStore,
  userSessionsFactorsMigration,
  userSessionsMigration,
} from "@tessera/session/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountMessages } from "../src/account-messages.js";
import {
  htmlSessionRoutes,
  otherSessionsEndedMessage,
} from "../src/devices/html-session-routes.js";
import { defaultSessionPages } from "../src/devices/sessions-page.js";
import { defaultAccountPages } from "../src/html/account-pages.js";
import { htmlAccountRoutes } from "../src/users/html-account-routes.js";
import { CHROME, deviceListLayout, FIREFOX } from "./device-list-fixtures.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-html-sessions-"));
const PASSWORD = "correct horse battery";
let now = Date.UTC(2026, 10, 22, 9, 0, 0);
const clock = () => now;

const layout = deviceListLayout;

/**
 * A real server on 127.0.0.1 over a SQLite file, with the routes mounted as they come and no
 * middleware at all: the routes open the cookie (which checks the device row) and sign-ins
 * record a row because the session cookies carry the tracked-session store. The client
 * address comes from the test.
 */
async function startServer() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [
    ...userMigrations,
    authTokensMigration,
    userSessionsMigration,
    userSessionsFactorsMigration,
  ]);
  const users = new SqlUserStore(database);
  const trackedSessions = new SqlTrackedSessionStore(database);
  const sessions = createSessionCookies({
    appName: "tessera",
    secrets: { current: "s".repeat(32) },
    clock,
    trackedSessions,
  });
  const route = routeRequests([
    ...htmlAccountRoutes({
      users,
      sessions,
      emailedTokens: new SqlEmailedTokenStore(database),
      mailer: undefined,
      appUrl: "http://app.example",
      rateLimiter: createRateLimiter({ store: new MemoryRateLimitStore(), limit: 1000, clock }),
      pages: defaultAccountPages(layout),
      clock,
      passwords: { iterations: 1000 },
    }),
    ...htmlSessionRoutes({ users, sessions, pages: defaultSessionPages(layout), clock }),
  ]);

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve(
      {
        hostname: "127.0.0.1",
        port: 0,
        async fetch(request) {
          const clientAddress = request.headers.get("x-test-client") ?? "127.0.0.1";
          return (
            (await route(request, { clientAddress })) ??
            new Response("no such route", { status: 404 })
          );
        },
      },
      () => resolve(started),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rows: (email: string) =>
      database.all<{ id: number; browser: string; ip_address: string }>(
        `SELECT user_sessions.id, browser, ip_address FROM user_sessions
         JOIN users ON users.id = user_id WHERE email = ? ORDER BY user_sessions.id`,
        [email],
      ),
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      database.close();
    },
  };
}

type TestServer = Awaited<ReturnType<typeof startServer>>;

/** A browser over real HTTP: its User-Agent, its address, and a jar for the session cookie. */
class Browser {
  cookie: string | undefined;

  constructor(
    private readonly server: TestServer,
    private readonly userAgent: string,
    private readonly address: string,
  ) {}

  async request(method: "GET" | "POST", path: string, form?: Record<string, string>) {
    const headers: Record<string, string> = {
      "user-agent": this.userAgent,
      "x-test-client": this.address,
    };
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    if (this.cookie) headers.cookie = this.cookie;
    const response = await fetch(`${this.server.url}${path}`, {
      method,
      headers,
      body: form ? new URLSearchParams(form).toString() : null,
      redirect: "manual",
    });
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

/** The table rows of the devices page, as text, with whether each is marked current. */
function deviceRows(html: string) {
  return [...html.matchAll(/<tr( aria-current="true")?>\n<th scope="row"[^>]*>([^<]*)<\/th>/g)].map(
    (match) => ({ current: match[1] !== undefined, browser: match[2] }),
  );
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

let accounts = 0;
/** Signs a new user up in the first browser, and in with the same account in the others. */
async function signedIn(...browsers: Browser[]) {
  const email = `user${++accounts}@example.com`;
  const [first, ...others] = browsers;
  expect((await first!.post("/signup", { email, password: PASSWORD })).status).toBe(303);
  for (const browser of others) {
    expect((await browser.post("/login", { email, password: PASSWORD })).status).toBe(303);
  }
  return email;
}

describe("the signed-in devices page", () => {
  it("lists both browsers, this device first and marked, the other with an end button", async () => {
    const firefox = new Browser(server, FIREFOX, "203.0.113.7");
    const chrome = new Browser(server, CHROME, "2001:db8::1");
    const email = await signedIn(firefox, chrome);
    const [firefoxRow, chromeRow] = await server.rows(email);

    now += 60_000;
    const page = await chrome.get("/account/sessions");
    expect(page.status).toBe(200);
    expect(deviceRows(page.html)).toEqual([
      { current: true, browser: "Chrome 120 on Windows" },
      { current: false, browser: "Firefox 128 on Linux" },
    ]);
    expect(page.html).toContain("<strong>This device</strong>");
    expect(page.html).toContain(`action="/account/sessions/${firefoxRow!.id}/delete"`);
    expect(page.html).not.toContain(`action="/account/sessions/${chromeRow!.id}/delete"`);
    expect(page.html).toContain("<td>2001:db8::1</td>");
    expect(page.html).toContain("<td>203.0.113.7</td>");
    expect(page.html).toContain(
      '<time datetime="2026-11-22T09:00:00Z">2026-11-22 09:00:00 UTC</time>',
    );
    expect(page.html).toContain('action="/account/sessions/others/delete"');

    expect(deviceRows((await firefox.get("/account/sessions")).html)).toEqual([
      { current: true, browser: "Firefox 128 on Linux" },
      { current: false, browser: "Chrome 120 on Windows" },
    ]);
  });

  it("signs an ended device out at its next request, and flashes it to the one that ended it", async () => {
    const firefox = new Browser(server, FIREFOX, "203.0.113.7");
    const chrome = new Browser(server, CHROME, "198.51.100.2");
    const email = await signedIn(firefox, chrome);
    const [firefoxRow] = await server.rows(email);

    const ended = await chrome.post(`/account/sessions/${firefoxRow!.id}/delete`);
    expect(ended).toMatchObject({ status: 303, location: "/account/sessions" });
    const page = await chrome.get("/account/sessions");
    expect(page.html).toContain(
      `<p class="flash-notice">${accountMessages.english["accounts.session_ended"]}</p>`,
    );
    expect(deviceRows(page.html)).toEqual([{ current: true, browser: "Chrome 120 on Windows" }]);
    expect(page.html).not.toContain("others/delete");

    expect(await firefox.get("/account")).toMatchObject({ status: 303, location: "/login" });
    expect((await firefox.get("/account")).location).toBe("/login");
    expect((await chrome.get("/account")).status).toBe(200);
  });

  it("signs an ended device out with no app middleware at all", async () => {
    const firefox = new Browser(server, FIREFOX, "203.0.113.7");
    const chrome = new Browser(server, CHROME, "198.51.100.2");
    const email = await signedIn(firefox, chrome);
    const [firefoxRow] = await server.rows(email);
    expect((await chrome.post(`/account/sessions/${firefoxRow!.id}/delete`)).status).toBe(303);
    expect(await firefox.get("/account/sessions")).toMatchObject({
      status: 303,
      location: "/login",
    });
    expect((await firefox.get("/account")).location).toBe("/login");
  });

  it("ends every other session, keeps this one, and flashes how many", async () => {
    const here = new Browser(server, FIREFOX, "203.0.113.7");
    const others = [
      new Browser(server, CHROME, "198.51.100.2"),
      new Browser(server, CHROME, "198.51.100.3"),
    ];
    const email = await signedIn(here, ...others);
    const bob = new Browser(server, CHROME, "192.0.2.9");
    const bobsEmail = await signedIn(bob);

    const ended = await here.post("/account/sessions/others/delete");
    expect(ended).toMatchObject({ status: 303, location: "/account/sessions" });
    const page = await here.get("/account/sessions");
    expect(page.html).toContain(
      `<p class="flash-notice">${escapeHtml(otherSessionsEndedMessage(2))}</p>`,
    );
    expect(page.html).toContain("Signed out of 2 other session(s).");
    expect(deviceRows(page.html)).toEqual([{ current: true, browser: "Firefox 128 on Linux" }]);
    for (const other of others) expect((await other.get("/account")).location).toBe("/login");
    expect((await here.get("/account")).status).toBe(200);
    expect(await server.rows(email)).toHaveLength(1);
    expect(await server.rows(bobsEmail)).toHaveLength(1);
    expect((await bob.get("/account")).status).toBe(200);

    await here.post("/account/sessions/others/delete");
    expect((await here.get("/account/sessions")).html).toContain(
      "Signed out of 0 other session(s).",
    );
  });

  it("answers 404 for another user's session, which stays signed in", async () => {
    const ada = new Browser(server, FIREFOX, "203.0.113.7");
    const bob = new Browser(server, CHROME, "198.51.100.2");
    await signedIn(ada);
    const bobsEmail = await signedIn(bob);
    const [bobsRow] = await server.rows(bobsEmail);

    const refused = await ada.post(`/account/sessions/${bobsRow!.id}/delete`);
    expect(refused.status).toBe(404);
    expect(refused.html).toContain("<title>Not found</title>");
    expect(refused.html).toContain("There is no such session signed in to your account.");
    expect(await server.rows(bobsEmail)).toHaveLength(1);
    expect((await bob.get("/account")).status).toBe(200);
    expect((await ada.get("/account")).status).toBe(200);
  });

  it("answers 404 for an id that is no session id at all", async () => {
    const ada = new Browser(server, FIREFOX, "203.0.113.7");
    await signedIn(ada);
    for (const id of ["abc", "0", "01", "-1", "1.5", "99999999999999999999", "%20"]) {
      expect((await ada.post(`/account/sessions/${id}/delete`)).status).toBe(404);
    }
    expect((await ada.get("/account")).status).toBe(200);
  });

  it("signs this browser out at once when it ends its own session", async () => {
    const ada = new Browser(server, FIREFOX, "203.0.113.7");
    const email = await signedIn(ada);
    const [row] = await server.rows(email);
    const ended = await ada.post(`/account/sessions/${row!.id}/delete`);
    expect(ended).toMatchObject({ status: 303, location: "/account/sessions" });
    expect(await server.rows(email)).toEqual([]);
    expect(await ada.get("/account")).toMatchObject({ status: 303, location: "/login" });
  });

  it("sends a visitor to log in, and changes nothing for one", async () => {
    const visitor = new Browser(server, FIREFOX, "203.0.113.7");
    expect(await visitor.get("/account/sessions")).toMatchObject({
      status: 303,
      location: "/login",
    });
    expect(await visitor.post("/account/sessions/others/delete")).toMatchObject({
      status: 303,
      location: "/login",
    });
    expect(await visitor.post("/account/sessions/1/delete")).toMatchObject({
      status: 303,
      location: "/login",
    });
  });

  it("escapes what the device sent", async () => {
    const odd = new Browser(server, FIREFOX, `"><script>alert(1)</script>`);
    await signedIn(odd);
    const page = await odd.get("/account/sessions");
    expect(page.html).not.toContain("<script>");
    expect(page.html).toContain("<td>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>");
  });
});
