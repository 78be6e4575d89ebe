import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import {
  accountEvents,
  defaultAccountPages,
  htmlAccountRoutes,
  htmlSecondFactorRoutes,
  passkeys,
  relyingPartyOf,
  secondFactors,
  sessionSignIns,
} from "@tessera/accounts";
import {
  accountMigrations,
  SqlEmailedTokenStore,
  SqlPasskeyStore,
  SqlSecondFactorStore,
  SqlUserStore,
} from "@tessera/accounts/sql";
import { type Route, routeRequests } from "@tessera/http";
import { identitiesMigration, SqlIdentityStore } from "@tessera/oauth/sql";
import { createRateLimiter, MemoryRateLimitStore } from "@tessera/ratelimit";
import {
  createSessionCookies,
  type MaybeSessionContext,
  requireUser,
  type Session,
} from "@tessera/session";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
// Until @tessera/sqlite's index exports them: then `from "@tessera/sqlite"`.
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { type Context, Hono } from "hono";
import { oauthRoutes, openIdProvider } from "../src/index.js";
import { Browser } from "./browser.js";
import { startOidcProvider } from "./oidc-test-provider.js";

/** The app's clock: timestamps written by the app are this instant. */
export const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
export const T0_TEXT = "2025-01-01 08:00:00";

/** What `/` and `/login` of the test app show: who is signed in, and the waiting flashes. */
export interface PageState {
  readonly userId: number | null;
  readonly flashes: { kind: string; message: string }[];
}

export interface UserRow {
  id: number;
  email: string;
  password_digest: string;
  confirmed_at: string | null;
}

export interface IdentityRow {
  user_id: number;
  provider: string;
  subject: string;
  email: string | null;
}

type AppEnv = { Variables: { session: Session } };

/**
 * A real app on 127.0.0.1 (Hono on Node, cookie sessions, SQLite file) with the OAuth routes of
 * two providers, `testidp` and `otheridp`, both a real oidc-provider on another port of
 * 127.0.0.1; plus the account deletion route of @tessera/accounts and a protected page.
 * Start it once per file (the provider prints its development warnings at each start) and
 * `reset()` it before each test.
 */
export async function startOAuthTestApp() {
  const folder = mkdtempSync(join(tmpdir(), "tessera-oauth-"));
  const database = openSqliteFile(join(folder, "app.db"));
  await applyMigrations(database, [...accountMigrations, identitiesMigration]);
  const users = new SqlUserStore(database);
  const identities = new SqlIdentityStore(database);
  const clock = () => T0;
  const secrets = { current: "a-secret-key-base-of-at-least-thirty-two-characters" };
  const sessions = createSessionCookies({
    appName: "tessera",
    secrets,
    clock,
    // Every sign-in records a device: the tests read the rows to see who was signed in.
    trackedSessions: new SqlTrackedSessionStore(database),
  });

  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set("session", await sessions.read(c.req.raw));
    await next();
    const setCookie = await sessions.setCookie(c.var.session);
    if (setCookie) c.header("Set-Cookie", setCookie, { append: true });
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () =>
      resolve(started),
    );
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const origin = `http://127.0.0.1:${address.port}`;

  const provider = await startOidcProvider([
    `${origin}/auth/testidp/callback`,
    `${origin}/auth/otheridp/callback`,
  ]);
  const credentials = {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
  };
  /** Every request the app made to the provider: `GET /.well-known/openid-configuration`. */
  const outbound: string[] = [];
  /** What each token request carried: its `Authorization` header and its form body. */
  const tokenRequests: { authorization: string | null; body: URLSearchParams }[] = [];
  const providerErrors: string[] = [];
  /** What the account hooks were told: `[hook, method, user id]`, in order. */
  const announced: [string, string | undefined, number][] = [];
  const factors = secondFactors(new SqlSecondFactorStore(database), secrets, {
    issuer: "Tessera Test",
    clock,
    passkeys: passkeys(new SqlPasskeyStore(database), relyingPartyOf(origin, "Test"), clock),
  });
  /** Addresses the accounts' `beforeSignIn` refuses, as a ban would. */
  const suspended = new Set<string>();
  const events = accountEvents({
    hooks: {
      beforeSignIn: ({ user }) =>
        suspended.has(user.email)
          ? { code: "account_suspended", message: "This account is suspended." }
          : undefined,
      onSignUp: ({ method, user }) => void announced.push(["onSignUp", method, user.id]),
      onSignIn: ({ method, user }) => void announced.push(["onSignIn", method, user.id]),
      onUserDeleted: ({ user }) => void announced.push(["onUserDeleted", undefined, user.id]),
    },
  });
  const signIns = sessionSignIns({ sessions, events, clock, secondFactors: factors });
  let failures = 0;
  const newRoutes = () =>
    oauthRoutes({
      providers: [
        openIdProvider({ ...credentials, name: "testidp", label: "Test IdP" }),
        openIdProvider({ ...credentials, name: "otheridp", label: "Other IdP" }),
      ],
      users,
      identities,
      appUrl: `${origin}/some/path`,
      clock,
      fetch: (url, init) => {
        outbound.push(`${init.method ?? "GET"} ${new URL(url).pathname}`);
        if (new URL(url).pathname === "/token") {
          tokenRequests.push({
            authorization: new Headers(init.headers).get("authorization"),
            body: new URLSearchParams(String(init.body)),
          });
        }
        if (failures > 0) {
          failures--;
          return Promise.reject(new TypeError("fetch failed: the network is down"));
        }
        return fetch(url, init);
      },
      sessions,
      onProviderError: (error, name) => providerErrors.push(`${name}: ${(error as Error).message}`),
      signIns,
    });
  let routes: Route<MaybeSessionContext>[] = newRoutes();
  const accountOptions = {
    users,
    sessions,
    emailedTokens: new SqlEmailedTokenStore(database),
    mailer: undefined,
    appUrl: origin,
    rateLimiter: createRateLimiter({ store: new MemoryRateLimitStore() }),
    pages: defaultAccountPages(({ title }) => `<title>${title}</title>`),
    clock,
    events,
    secondFactors: factors,
    signIns,
  };
  const accountPages = htmlAccountRoutes(accountOptions);
  const secondFactorPages = htmlSecondFactorRoutes({ ...accountOptions, secondFactors: factors });

  // The routes as they come, behind the app's own session middleware (their session is reused).
  const mounted =
    (current: () => readonly Route<MaybeSessionContext>[]) => async (c: Context<AppEnv>) =>
      (await routeRequests(current())(c.req.raw, {
        clientAddress: "127.0.0.1",
        session: c.var.session,
      })) ?? c.notFound();
  const pageState = (c: Context<AppEnv>) =>
    c.json({ userId: c.var.session.userId ?? null, flashes: c.var.session.takeFlashes() });
  app.post(
    "/auth/:provider",
    mounted(() => routes),
  );
  app.get(
    "/auth/:provider/callback",
    mounted(() => routes),
  );
  app.get("/", pageState);
  app.get("/login", pageState);
  app.get("/private", async (c) => {
    const access = await requireUser(c.var.session, c.req.raw, (id) => users.findById(id));
    return access.ok ? c.text("private") : access.response;
  });
  app.post(
    "/account/delete",
    mounted(() => accountPages),
  );
  app.on(
    ["GET", "POST"],
    "/login/second_factor",
    mounted(() => secondFactorPages),
  );

  return {
    /** Back to a fresh start: no users (ids from 1 again), no provider accounts, new routes. */
    async reset() {
      await database.run("DELETE FROM users");
      await database.run("DELETE FROM sqlite_sequence");
      provider.accounts.clear();
      outbound.length = 0;
      tokenRequests.length = 0;
      providerErrors.length = 0;
      announced.length = 0;
      failures = 0;
      routes = newRoutes();
    },
    /** Makes the app's next `count` requests to the provider fail as a network error would. */
    failNextProviderRequests(count: number) {
      failures = count;
    },
    origin,
    provider,
    users,
    /** TOTP, backup codes and passkeys: a user with TOTP is asked for it at every sign-in. */
    factors,
    database,
    outbound,
    tokenRequests,
    providerErrors,
    announced,
    suspended,
    /** The user of each signed-in device, in the order they signed in. */
    deviceUserIds: async () =>
      (
        await database.all<{ user_id: number }>("SELECT user_id FROM user_sessions ORDER BY id")
      ).map((row) => row.user_id),
    /** What signed each device in (`factors` of its tracked session), in order. */
    deviceFactors: async () =>
      (
        await database.all<{ factors: string }>("SELECT factors FROM user_sessions ORDER BY id")
      ).map((row) => row.factors),
    userRows: () =>
      database.all<UserRow>(
        "SELECT id, email, password_digest, confirmed_at FROM users ORDER BY id",
      ),
    identityRows: () =>
      database.all<IdentityRow>(
        "SELECT user_id, provider, subject, email FROM identities ORDER BY id",
      ),

    /** `POST /auth/<provider>` in the browser: the app's 303 and the authorization URL. */
    async start(browser: Browser, providerName = "testidp") {
      const response = await browser.submit(`${origin}/auth/${providerName}`);
      return { response, authorizationUrl: Browser.location(response, origin) };
    },

    /** Starts at the app and goes through the provider as `accountId`: the callback URL. */
    async callbackUrl(browser: Browser, accountId: string, options: { cancel?: boolean } = {}) {
      const { authorizationUrl } = await this.start(browser);
      return browser.authorizeAtProvider(authorizationUrl, origin, accountId, options);
    },

    /** Visits a callback URL; where the app sends the browser, and what that page shows. */
    async finish(browser: Browser, callbackUrl: string) {
      const response = await browser.request(callbackUrl);
      const location = response.headers.get("location");
      const page = location?.startsWith("/")
        ? await browser.request(`${origin}${location}`)
        : undefined;
      const state = page?.headers.get("content-type")?.startsWith("application/json")
        ? ((await page.json()) as PageState)
        : undefined;
      return { status: response.status, location, state };
    },

    async close() {
      await provider.close();
      await new Promise<void>((resolve) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => resolve());
      });
      database.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export type OAuthTestApp = Awaited<ReturnType<typeof startOAuthTestApp>>;
