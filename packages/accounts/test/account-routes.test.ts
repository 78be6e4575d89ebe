import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { createApiKey } from "@tessera/bearer";
import type { Locale } from "@tessera/core";
import { type PageHeaderOptions, routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { bindingRateLimiter, type RateLimitBinding, type RateLimiter } from "@tessera/ratelimit";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { applyMigrations, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { accountRoutes } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-account-routes-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PASSWORD = "correct horse battery staple";
const ORIGIN = "https://app.example";

/**
 * `accountRoutes` on a SQLite file, mounted the way any framework would mount it, with no
 * middleware of any kind between the request and the routes.
 */
async function mountedAlone(
  options: {
    allowedOrigins?: readonly string[];
    rateLimits?: RateLimiter;
    pageHeaders?: PageHeaderOptions;
  } = {},
) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  const stores = sqlAccountStores(database);
  const mailer = new MemoryMailer();
  const accounts = accountRoutes({
    ...stores,
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    mailer,
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    ...options,
  });
  const handle = routeRequests(accounts.routes);
  /** Sends `request`, in `locale` when given (as `localeNegotiation` would choose it). */
  const send = async (request: Request, locale?: Locale) => {
    const response = await handle(request, {
      clientAddress: "203.0.113.7",
      ...(locale ? { locale } : {}),
    });
    if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
    return response;
  };
  return { send, database, stores, mailer, accounts };
}

function form(path: string, fields: Record<string, string>, headers: Record<string, string>) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
}

const sameOrigin = { origin: ORIGIN, host: "app.example" };

/** A JSON API request, with the bearer `token` when given. */
function jsonRequest(path: string, method: string, body?: unknown, token?: string): Request {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function signedUp(send: (request: Request) => Promise<Response>) {
  const email = `ada-${crypto.randomUUID()}@example.com`;
  const response = await send(form("/signup", { email, password: PASSWORD }, sameOrigin));
  expect(response.status).toBe(303);
  return email;
}

describe("accountRoutes mounted with no middleware", () => {
  it("answers each page with its security headers, and the JSON routes without page ones", async () => {
    const { send } = await mountedAlone();
    const login = await send(new Request(`${ORIGIN}/login`));
    expect(login.headers.get("content-security-policy")).toMatch(
      /script-src 'nonce-[A-Za-z0-9_-]{43}'; .*frame-ancestors 'none'/,
    );
    expect(login.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(login.headers.get("permissions-policy")).toContain("camera=()");
    const me = await send(new Request(`${ORIGIN}/api/auth/me`));
    expect(me.status).toBe(401);
    expect(me.headers.has("content-security-policy")).toBe(false);
  });

  it("takes pageHeaders for every page", async () => {
    const { send } = await mountedAlone({
      pageHeaders: { extendPolicy: { "img-src": ["https://cdn.example"] } },
    });
    for (const path of ["/login", "/signup", "/magic_link"]) {
      const page = await send(new Request(`${ORIGIN}${path}`));
      expect(page.headers.get("content-security-policy")).toMatch(
        /img-src [^;]*https:\/\/cdn\.example/,
      );
    }
  });

  it.each([
    ["a foreign Origin", { origin: "https://evil.example", host: "app.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Origin: null", { origin: "null", host: "app.example" }],
  ])("refuses a login with %s: 403, no cookie, nobody signed in", async (_name, headers) => {
    const { send } = await mountedAlone();
    const email = await signedUp(send);
    const forged = await send(form("/login", { email, password: PASSWORD }, headers));
    expect(forged.status).toBe(403);
    expect(forged.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await forged.text()).toMatch(/ALLOWED_ORIGINS/);
    expect(forged.headers.getSetCookie()).toEqual([]);
  });

  it("signs in from the same origin and keeps the session in its cookie", async () => {
    const { send } = await mountedAlone();
    const email = await signedUp(send);
    const login = await send(form("/login", { email, password: PASSWORD }, sameOrigin));
    expect(login.status).toBe(303);
    const [cookie] = login.headers.getSetCookie();
    expect(cookie).toMatch(/^_tessera_session=.*HttpOnly.*SameSite=Lax/);
    const account = await send(
      new Request(`${ORIGIN}/account`, { headers: { cookie: cookie!.split(";")[0]! } }),
    );
    expect(account.status).toBe(200);
    expect(await account.text()).toContain(email);
  });

  it("accepts a cross-site login from an allowed origin", async () => {
    const partner = "https://partner.example";
    const { send } = await mountedAlone({ allowedOrigins: [partner] });
    const email = await signedUp(send);
    const login = await send(
      form("/login", { email, password: PASSWORD }, { origin: partner, host: "app.example" }),
    );
    expect(login.status).toBe(303);
    expect(login.headers.getSetCookie()).toHaveLength(1);
  });

  it("refuses every other cross-site form too (sign-up, logout, account deletion)", async () => {
    const { send, database } = await mountedAlone();
    const evil = { origin: "https://evil.example", host: "app.example" };
    const email = `eve-${crypto.randomUUID()}@example.com`;
    for (const path of ["/signup", "/logout", "/account/delete", "/magic_link", "/passwords"]) {
      const response = await send(form(path, { email, password: PASSWORD }, evil));
      expect(response.status, path).toBe(403);
    }
    expect(await database.get("SELECT id FROM users WHERE email = ?", [email])).toBeUndefined();
  });

  it.each([
    ["is not urlencoded", 400, "The form could not be read.", "application/json", '{"email":1}'],
    [
      "is over 1 MiB",
      413,
      "The form is larger than 1 MB.",
      "application/x-www-form-urlencoded",
      `email=${"a".repeat(1024 * 1024)}`,
    ],
  ])(
    "answers a form that %s with a %i page on every form, changing nothing",
    async (_, status, message, type, body) => {
      const { send, database, mailer } = await mountedAlone();
      const email = `ada-${crypto.randomUUID()}@example.com`;
      const signup = await send(form("/signup", { email, password: PASSWORD }, sameOrigin));
      const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
      await send(form("/passwords", { email }, sameOrigin));
      const resetToken = mailer.last(email)!.text.match(/\/passwords\/([\w-]{43})/)![1]!;
      const before = await database.all("SELECT * FROM users");
      for (const path of [
        "/signup",
        "/login",
        "/magic_link",
        "/passwords",
        `/passwords/${resetToken}`,
        "/account/delete",
      ]) {
        const response = await send(
          new Request(`${ORIGIN}${path}`, {
            method: "POST",
            headers: { ...sameOrigin, cookie, "content-type": type },
            body,
          }),
        );
        expect(response.status, path).toBe(status);
        expect(response.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
        expect(await response.text(), path).toContain(`<p role="alert">${message}</p>`);
      }
      expect(await database.all("SELECT * FROM users")).toEqual(before);
      // The reset link was only looked at: it still opens its form.
      expect((await send(new Request(`${ORIGIN}/passwords/${resetToken}`))).status).toBe(200);
    },
  );

  it("records the device at sign-in and ends it at logout", async () => {
    const { send, database } = await mountedAlone();
    const email = await signedUp(send);
    const rows = () =>
      database.all(
        "SELECT user_sessions.id FROM user_sessions JOIN users ON users.id = user_id WHERE email = ?",
        [email],
      );
    const login = await send(form("/login", { email, password: PASSWORD }, sameOrigin));
    const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
    // The sign-up's browser and this one.
    expect(await rows()).toHaveLength(2);
    const logout = await send(form("/logout", {}, { ...sameOrigin, cookie }));
    expect(logout.status).toBe(303);
    expect(await rows()).toHaveLength(1);
  });

  it("serves the JSON API: sign-up, token, me, keys", async () => {
    const { send } = await mountedAlone();
    const json = (path: string, method: string, body?: unknown, token?: string) =>
      send(jsonRequest(path, method, body, token));
    const email = `grace-${crypto.randomUUID()}@example.com`;
    expect((await json("/api/auth/signup", "POST", { email, password: PASSWORD })).status).toBe(
      201,
    );
    const { token } = await (
      await json("/api/auth/token", "POST", { email, password: PASSWORD })
    ).json();
    expect((await (await json("/api/auth/me", "GET", undefined, token)).json()).email).toBe(email);
    const created = await json("/api/auth/keys", "POST", { name: "ci" }, token);
    expect(created.status).toBe(201);
    const { api_key } = await created.json();
    const deleted = await json(`/api/auth/keys/${api_key.id}`, "DELETE", undefined, token);
    expect(deleted.status).toBe(204);
    expect((await json("/api/auth/me", "GET")).status).toBe(401);
  });

  it("writes the chosen locale's language headers into the sign-up and me answers", async () => {
    const { send } = await mountedAlone();
    // The locale as localeNegotiation would choose it, without the headers it would add.
    const json = (path: string, method: string, body?: unknown, token?: string) =>
      send(jsonRequest(path, method, body, token), FRENCH);
    const email = `grace-${crypto.randomUUID()}@example.com`;
    const signedUp = await json("/api/auth/signup", "POST", { email, password: PASSWORD });
    expect(languageOf(signedUp)).toEqual(inFrench(201));
    const { token } = await (
      await json("/api/auth/token", "POST", { email, password: PASSWORD })
    ).json();
    const me = await json("/api/auth/me", "GET", undefined, token);
    expect(languageOf(me)).toEqual(inFrench(200));
    expect((await me.json()).email).toBe(email);
  });

  it("writes the chosen locale's language headers into the token, API key, email code and account deletion answers and their refusals", async () => {
    const { send } = await mountedAlone();
    const json = (path: string, method: string, body?: unknown, token?: string) =>
      send(jsonRequest(path, method, body, token), FRENCH);
    const email = `hedy-${crypto.randomUUID()}@example.com`;
    await json("/api/auth/signup", "POST", { email, password: PASSWORD });
    const granted = await json("/api/auth/token", "POST", { email, password: PASSWORD });
    expect(languageOf(granted)).toEqual(inFrench(200));
    const { token } = await granted.json();
    const wrong = await json("/api/auth/token", "POST", { email, password: "not the password" });
    expect(languageOf(wrong)).toEqual(inFrench(401));
    expect(languageOf(await json("/api/auth/keys", "POST", { name: "ci" }, token))).toEqual(
      inFrench(201),
    );
    expect(languageOf(await json("/api/auth/keys", "POST", { name: " " }, token))).toEqual(
      inFrench(422),
    );
    expect(languageOf(await json("/api/auth/keys", "GET", undefined, token))).toEqual(
      inFrench(200),
    );
    expect(languageOf(await json("/api/auth/email_code", "POST", { email }))).toEqual(
      inFrench(202),
    );
    const kept = await json("/api/auth/me", "DELETE", { password: "not the password" }, token);
    expect(languageOf(kept)).toEqual(inFrench(403));
    // Sent with no locale, as outside localeNegotiation: no language headers.
    const plain = await send(jsonRequest("/api/auth/keys", "GET", undefined, token));
    expect(languageOf(plain)).toEqual([200, null, null]);
  });

  it("reads a request's API key and its user in one statement", async () => {
    const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
    await applyMigrations(database, accountMigrations);
    const reads: string[] = [];
    const recording: SqlDatabase = {
      ...database,
      get: (sql, params) => {
        reads.push(sql);
        return database.get(sql, params);
      },
    };
    const stores = sqlAccountStores(recording);
    const { bearer } = accountRoutes({ ...stores, secretKeyBase: "k".repeat(32) });
    const user = await stores.users.create({ email: "ada@example.com", passwordDigest: "" }, 0);
    if (!user.ok) throw new Error("created");
    const created = await createApiKey(stores.apiKeys, { userId: user.value.id, name: "ci" });
    if (!created.ok) throw new Error("created");
    const request = new Request(`${ORIGIN}/api/auth/me`, {
      headers: { authorization: `Bearer ${created.value.key}` },
    });
    // The first use also writes last_used_at; from then on a request only reads.
    await bearer.authenticate(request);
    reads.length = 0;
    const identity = await bearer.authenticate(request);
    expect(identity.ok && identity.value.user.email).toBe("ada@example.com");
    expect(identity.ok && identity.value.credential === "api_key" && identity.value.apiKeyId).toBe(
      created.value.api_key.id,
    );
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/FROM api_keys JOIN users/);
  });
});

describe("accountRoutes with the Workers rate-limiting binding", () => {
  it("refuses the attempt after the binding's limit with 429 and Retry-After of its period", async () => {
    const worker = new Miniflare({
      modules: true,
      script: "export default { fetch: () => new Response() }",
      compatibilityDate: "2026-07-01",
      ratelimits: { AUTH_RATE_LIMITER: { namespace_id: "1001", simple: { limit: 2, period: 60 } } },
    });
    try {
      const { AUTH_RATE_LIMITER } = await worker.getBindings<{
        AUTH_RATE_LIMITER: RateLimitBinding;
      }>();
      const { send } = await mountedAlone({
        rateLimits: bindingRateLimiter(AUTH_RATE_LIMITER, { limit: 2, periodSeconds: 60 }),
      });
      const token = () =>
        send(
          new Request(`${ORIGIN}/api/auth/token`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: "nobody@example.com", password: PASSWORD }),
          }),
        );
      // The binding's windows start on the clock's minute: all three attempts go in one.
      await awaitWindowRoom(10_000);
      expect((await token()).status).toBe(401);
      expect((await token()).status).toBe(401);
      const refused = await token();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("60");
      expect(await refused.json()).toEqual({
        error: {
          code: "rate_limited",
          status: 429,
          message: "Too many requests. Try again later.",
        },
      });
    } finally {
      await worker.dispose();
    }
  });
});

describe("accountRoutes' currentUser, for the app's own routes", () => {
  /** A request to one of the app's own routes, carrying these headers. */
  const ownRoute = (headers: Record<string, string> = {}) =>
    new Request(`${ORIGIN}/mine`, { headers });

  async function signedInCookie(send: (request: Request) => Promise<Response>) {
    const email = `lin-${crypto.randomUUID()}@example.com`;
    const signup = await send(form("/signup", { email, password: PASSWORD }, sameOrigin));
    expect(signup.status).toBe(303);
    const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
    return { email, cookie };
  }

  it("is the user the session cookie signed in, and undefined without one", async () => {
    const { send, accounts } = await mountedAlone();
    const { email, cookie } = await signedInCookie(send);
    expect((await accounts.currentUser(ownRoute({ cookie })))?.email).toBe(email);
    expect(await accounts.currentUser(ownRoute())).toBeUndefined();
    // One character in the middle changed, so the cookie always differs: changing the last two
    // gave the same cookie back when it ended in "BA".
    const middle = Math.floor(cookie.length / 2);
    const tampered = `${cookie.slice(0, middle)}${cookie[middle] === "A" ? "B" : "A"}${cookie.slice(middle + 1)}`;
    expect(await accounts.currentUser(ownRoute({ cookie: tampered }))).toBeUndefined();
  });

  it("is undefined after logout and for a deleted user's cookie", async () => {
    const { send, accounts, stores } = await mountedAlone();
    const { email, cookie } = await signedInCookie(send);
    const logout = await send(form("/logout", {}, { ...sameOrigin, cookie }));
    const signedOut = logout.headers.getSetCookie()[0]!.split(";")[0]!;
    expect(await accounts.currentUser(ownRoute({ cookie: signedOut }))).toBeUndefined();
    const user = await stores.users.findByEmail(email);
    await stores.users.delete(user!.id);
    expect(await accounts.currentUser(ownRoute({ cookie }))).toBeUndefined();
  });

  it("is undefined for a cookie signed in before the user's credentials changed", async () => {
    const { send, accounts, stores } = await mountedAlone();
    const { email, cookie } = await signedInCookie(send);
    const user = await stores.users.findByEmail(email);
    // Two seconds on: changes are compared in whole seconds.
    await stores.users.updatePasswordDigest(user!.id, user!.passwordDigest, Date.now() + 2000, {
      endSignIns: true,
    });
    expect(await accounts.currentUser(ownRoute({ cookie }))).toBeUndefined();
  });

  it("reads a bearer token only when asked, and then by the token alone", async () => {
    const { send, accounts } = await mountedAlone();
    const { email, cookie } = await signedInCookie(send);
    const tokenAnswer = await send(
      new Request(`${ORIGIN}/api/auth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: PASSWORD }),
      }),
    );
    const { token } = await tokenAnswer.json();
    const withToken = ownRoute({ authorization: `Bearer ${token}` });
    expect(await accounts.currentUser(withToken)).toBeUndefined();
    expect((await accounts.currentUser(withToken, { bearer: true }))?.email).toBe(email);
    const badToken = ownRoute({ authorization: "Bearer not-a-token", cookie });
    expect(await accounts.currentUser(badToken, { bearer: true })).toBeUndefined();
    expect((await accounts.currentUser(ownRoute({ cookie }), { bearer: true }))?.email).toBe(email);
  });
});

describe("a limiter whose wait is not whole seconds", () => {
  // A limiter of the app's own may answer any wait: every 429 rounds it up, page and JSON alike.
  const refusing: RateLimiter = {
    attempt: async () => ({ allowed: false, limit: 1, remaining: 0, retryAfterSeconds: 1.2 }),
  };

  it("answers Retry-After in whole seconds, rounded up, on the login page and the token route", async () => {
    const { send } = await mountedAlone({ rateLimits: refusing });
    const page = await send(form("/login", { email: "a@example.com", password: "x" }, sameOrigin));
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).toBe("2");
    const json = await send(
      new Request(`${ORIGIN}/api/auth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", password: PASSWORD }),
      }),
    );
    expect(json.status).toBe(429);
    expect(json.headers.get("retry-after")).toBe("2");
  });
});
