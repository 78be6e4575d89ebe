import { MemoryMailer } from "@tessera/mail";
import { MemoryObjectStorage } from "@tessera/records";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { openAppDatabase } from "../src/database.js";
import { appMigrations } from "../src/migrations.js";
import { Browser } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const IN_MEMORY = { databasePath: ":memory:", databaseUrl: undefined };

const PASSWORD = "correct horse battery";
let counter = 0;
const uniqueEmail = () => `cookie${++counter}.${Date.now()}@example.com`;

/** The session cookie a response sets, failing when it sets none. */
function sessionCookieOf(headers: Headers): string {
  const cookie = headers.getSetCookie().find((header) => header.startsWith("_tessera_session="));
  if (cookie === undefined) throw new Error("no session cookie was set");
  return cookie;
}

/** Signs a new user up (which signs in) with `headers` on the request: the cookie set. */
async function signUpCookie(server: TestServer, headers: Record<string, string> = {}) {
  const body = new URLSearchParams({ email: uniqueEmail(), password: PASSWORD }).toString();
  const response = await new Browser(server.url).request("POST", "/signup", body, headers);
  expect(response.status).toBe(303);
  return sessionCookieOf(response.headers);
}

describe("remember me on the real clock", () => {
  let server: TestServer;
  beforeAll(async () => {
    // No clock option: the app reads the system clock, as in production.
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it("sets Max-Age=1209600 exactly on every login with remember_me=1", async () => {
    const email = uniqueEmail();
    expect(
      (await new Browser(server.url).post("/signup", { email, password: PASSWORD })).status,
    ).toBe(303);
    for (let login = 0; login < 3; login++) {
      const response = await new Browser(server.url).post("/login", {
        email,
        password: PASSWORD,
        remember_me: "1",
      });
      expect(response.status).toBe(303);
      expect(sessionCookieOf(response.headers)).toMatch(/; Max-Age=1209600;/);
    }
  });
});

describe("the session cookie's Secure attribute", () => {
  let plain: TestServer;
  let behindProxy: TestServer;
  let production: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
    behindProxy = await startTestServer({ TRUST_PROXY: "1" });
    // The requests reach it at 127.0.0.1: listed, as the host check wants in production.
    production = await startTestServer({
      NODE_ENV: "production",
      APP_URL: "https://app.example",
      ALLOWED_HOSTS: "127.0.0.1",
    });
  });
  afterAll(async () => {
    await Promise.all([plain.stop(), behindProxy.stop(), production.stop()]);
  });

  it("is set behind a trusted proxy that says X-Forwarded-Proto: https", async () => {
    expect(await signUpCookie(behindProxy, { "x-forwarded-proto": "https" })).toMatch(/; Secure;/);
    // A proxy chain that appends: the entry of the trusted proxy is the rightmost one.
    expect(await signUpCookie(behindProxy, { "x-forwarded-proto": "http, https" })).toMatch(
      /; Secure;/,
    );
  });

  it("is not set behind the trusted proxy when it forwarded plain http", async () => {
    for (const proto of ["http", "https, http"]) {
      expect(await signUpCookie(behindProxy, { "x-forwarded-proto": proto })).not.toContain(
        "Secure",
      );
    }
    expect(await signUpCookie(behindProxy)).not.toContain("Secure");
  });

  it("is set in production when APP_URL is https, even for a request that came in plain", async () => {
    expect(await signUpCookie(production)).toMatch(/; Secure;/);
  });

  it("is not set on plain http without a trusted proxy", async () => {
    expect(await signUpCookie(plain)).not.toContain("Secure");
  });

  it("ignores X-Forwarded-Proto: https when no proxy is trusted (anyone can send it)", async () => {
    expect(await signUpCookie(plain, { "x-forwarded-proto": "https" })).not.toContain("Secure");
  });

  it("is not set in development for an https APP_URL, so http://localhost keeps working", async () => {
    const development = await startTestServer({ APP_URL: "https://app.example" });
    try {
      expect(await signUpCookie(development)).not.toContain("Secure");
    } finally {
      await development.stop();
    }
  });

  it("is set when the request URL itself is https (TLS ended in this process)", async () => {
    // The Node server here speaks plain HTTP only, so the app is given an https Request directly.
    const database = await openAppDatabase(IN_MEMORY, appMigrations);
    try {
      const app = createApp({
        config: loadConfig({ SECRET_KEY_BASE: "h".repeat(64) }),
        secretKeyBase: "h".repeat(64),
        database,
        mailer: new MemoryMailer(),
        trackedSessions: new SqlTrackedSessionStore(database),
        storage: new MemoryObjectStorage(),
        renderJobs: undefined,
      });
      const response = await app.fetch(
        new Request("https://app.example/signup", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email: uniqueEmail(), password: PASSWORD }),
        }),
      );
      expect(response.status).toBe(303);
      expect(sessionCookieOf(response.headers)).toMatch(/; Secure;/);
    } finally {
      database.close();
    }
  });
});

describe("HSTS follows the same decision as Secure", () => {
  let plain: TestServer;
  let behindProxy: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
    behindProxy = await startTestServer({ TRUST_PROXY: "1" });
  });
  afterAll(async () => {
    await Promise.all([plain.stop(), behindProxy.stop()]);
  });

  const hstsOf = async (server: TestServer, headers: Record<string, string>) =>
    (await fetch(`${server.url}/api/health`, { headers })).headers.get("strict-transport-security");

  it("is sent behind a trusted proxy that says X-Forwarded-Proto: https", async () => {
    expect(await hstsOf(behindProxy, { "x-forwarded-proto": "https" })).toMatch(/^max-age=\d+/);
  });

  it("is not sent for plain http, nor for a forwarded https that no trusted proxy wrote", async () => {
    expect(await hstsOf(behindProxy, { "x-forwarded-proto": "http" })).toBeNull();
    expect(await hstsOf(plain, { "x-forwarded-proto": "https" })).toBeNull();
  });
});
