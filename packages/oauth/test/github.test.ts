import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountEvents, sessionSignIns } from "@tessera/accounts";
import { SqlUserStore, userMigrations } from "@tessera/accounts/sql";
import { type Locale, systemClock } from "@tessera/core";
import { routeRequests } from "@tessera/http";
import { identitiesMigration, SqlIdentityStore } from "@tessera/oauth/sql";
import { createSessionCookies, type Session } from "@tessera/session";
// Until @tessera/sqlite's index exports them: then `from "@tessera/sqlite"`.
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { githubProvider, MemoryIdentityStore, oauthRoutes } from "../src/index.js";
import { type GitHubAccount, startGitHubEmulator } from "./github-emulator.js";

const APP = "http://app.test";
const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
const client = { clientId: "Iv1.8a61f9b3a7aba766", clientSecret: "the-app's-client-secret" };
const octocat: GitHubAccount = {
  id: 583231,
  login: "octocat",
  emails: [
    { email: "octocat@users.noreply.github.com", primary: false, verified: true },
    { email: "Octocat@Example.com", primary: true, verified: true },
  ],
};

const folder = mkdtempSync(join(tmpdir(), "tessera-github-"));
let emulator: Awaited<ReturnType<typeof startGitHubEmulator>>;
beforeAll(async () => {
  emulator = await startGitHubEmulator(client);
});
afterAll(async () => {
  await emulator.close();
  rmSync(folder, { recursive: true, force: true });
});

const sessions = createSessionCookies({
  appName: "tessera",
  secrets: { current: "a-secret-key-base-of-at-least-thirty-two-characters" },
});
let files = 0;
let app: Awaited<ReturnType<typeof setUp>>;
beforeEach(async () => {
  emulator.requests.length = 0;
  app = await setUp();
});

async function setUp(locale?: Locale) {
  const database = openSqliteFile(join(folder, `github-${++files}.db`));
  await applyMigrations(database, [...userMigrations, identitiesMigration]);
  const errors: string[] = [];
  const route = routeRequests(
    oauthRoutes({
      providers: [githubProvider({ ...client, serverUrl: emulator.serverUrl })],
      users: new SqlUserStore(database),
      identities: new SqlIdentityStore(database),
      appUrl: APP,
      clock: () => T0,
      onProviderError: (error) => errors.push((error as Error).message),
      sessions,
      signIns: sessionSignIns({ sessions, events: accountEvents(), clock: () => T0 }),
    }),
  );
  // One session carried from request to request, as its cookie would carry it.
  const session: Session = await sessions.read(new Request(`${APP}/`));
  const context = { clientAddress: "127.0.0.1", session, ...(locale ? { locale } : {}) };

  /** Start, "GitHub", callback: the app's last answer and the session's flashes. */
  async function signIn(change?: (callbackUrl: URL) => void) {
    const request = new Request(`${APP}/auth/github`, { method: "POST" });
    const started = (await route(request, context))!;
    const authorize = await fetch(started.headers.get("location")!, { redirect: "manual" });
    const callbackUrl = new URL(authorize.headers.get("location")!);
    change?.(callbackUrl);
    const answer = (await route(new Request(callbackUrl), context))!;
    return {
      location: answer.headers.get("location"),
      userId: session.userId,
      flashes: session.takeFlashes().map((flash) => flash.message),
    };
  }
  const rows = async () => ({
    users: await database.all("SELECT id, email, password_digest, confirmed_at FROM users"),
    identities: await database.all("SELECT user_id, provider, subject, email FROM identities"),
  });
  return { signIn, rows, errors, context };
}

describe("the GitHub preset in a locale", () => {
  const pirate: Locale = {
    tag: "x-pirate",
    catalog: {
      "accounts.signed_in": "Ahoy, ye be aboard.",
      "oauth.email_unverified": "Yer {provider} bottle be unproven.",
    },
  };

  it("flashes the sign-in notice and the refusals in the request's locale", async () => {
    const inPirate = await setUp(pirate);
    emulator.signIn(octocat);
    expect((await inPirate.signIn()).flashes).toEqual(["Ahoy, ye be aboard."]);
    inPirate.context.session.signOut();
    emulator.signIn({
      ...octocat,
      id: 1,
      emails: [{ email: "other@example.com", primary: true, verified: false }],
    });
    expect((await inPirate.signIn()).flashes).toEqual(["Yer GitHub bottle be unproven."]);
  });
});

describe("the GitHub preset", () => {
  it("signs in with the numeric id and the primary verified email, in 3 requests", async () => {
    emulator.signIn(octocat);
    expect(await app.signIn()).toEqual({ location: "/", userId: 1, flashes: ["Signed in."] });
    expect(await app.rows()).toEqual({
      users: [
        {
          id: 1,
          email: "octocat@example.com",
          password_digest: "",
          confirmed_at: "2025-01-01 08:00:00",
        },
      ],
      identities: [
        { user_id: 1, provider: "github", subject: "583231", email: "octocat@example.com" },
      ],
    });
    expect(emulator.requests).toEqual([
      "GET /login/oauth/authorize",
      "POST /login/oauth/access_token",
      "GET /api/v3/user",
      "GET /api/v3/user/emails",
    ]);
    expect(app.errors).toEqual([]);
  });

  it("asks github.com for user:email, with the callback on APP_URL's origin", async () => {
    const database = openSqliteFile(":memory:");
    const route = routeRequests(
      oauthRoutes({
        providers: [githubProvider(client)],
        users: new SqlUserStore(database),
        identities: new MemoryIdentityStore(),
        appUrl: APP,
        sessions,
        signIns: sessionSignIns({ sessions, events: accountEvents(), clock: systemClock }),
      }),
    );
    // The request's own host is forged: it must not reach the redirect_uri.
    const request = new Request("http://forged-host.example/auth/github", { method: "POST" });
    const started = (await route(request, app.context))!;
    const url = new URL(started.headers.get("location")!);
    expect(`${url.origin}${url.pathname}`).toBe("https://github.com/login/oauth/authorize");
    expect(url.searchParams.get("scope")).toBe("user:email");
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP}/auth/github/callback`);
    database.close();
  });

  it("fits its 3 session values beside a tracked-session token (the session holds 4)", async () => {
    app.context.session.set("tracked", "a-tracked-session-token");
    emulator.signIn(octocat);
    expect(await app.signIn()).toEqual({ location: "/", userId: 1, flashes: ["Signed in."] });
  });

  it("refuses an account whose primary email is not verified, creating nothing", async () => {
    emulator.signIn({
      ...octocat,
      emails: [
        { email: "octocat@users.noreply.github.com", primary: false, verified: true },
        { email: "octocat@example.com", primary: true, verified: false },
      ],
    });
    expect(await app.signIn()).toEqual({
      location: "/login",
      userId: undefined,
      flashes: [
        "Your GitHub email address is not verified, so it cannot be used to sign in. Verify it at GitHub, then try again.",
      ],
    });
    expect(await app.rows()).toEqual({ users: [], identities: [] });
  });

  it("refuses a code GitHub rejects (its errors come with status 200), and reports it", async () => {
    emulator.signIn(octocat);
    const outcome = await app.signIn((url) => url.searchParams.set("code", "stale-code"));
    expect(outcome).toEqual({
      location: "/login",
      userId: undefined,
      flashes: ["Signing in with GitHub failed. Please try again."],
    });
    expect(app.errors).toEqual([expect.stringContaining('"access_token"')]);
    expect(await app.rows()).toEqual({ users: [], identities: [] });
    expect(emulator.requests).not.toContain("GET /api/v3/user");
  });
});
