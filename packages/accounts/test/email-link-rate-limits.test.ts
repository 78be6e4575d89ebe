import {
  authTokensMigration,
  SqlEmailedTokenStore,
  SqlUserStore,
  userMigrations,
} from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { createRateLimiter, MemoryRateLimitStore, type RateLimitStore } from "@tessera/ratelimit";
import { createSessionCookies } from "@tessera/session";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { describe, expect, it } from "vitest";
import { htmlEmailLinkRoutes } from "../src/email-link/html-email-link-routes.js";
import { defaultAccountPages } from "../src/html/account-pages.js";
import { MAXIMUM_EMAIL_LENGTH } from "../src/users/email.js";

const clock = () => Date.UTC(2026, 10, 22, 9, 0, 0);
const sessions = createSessionCookies({ appName: "tessera", secrets: { current: "s".repeat(32) } });

/** The email-link routes on an in-memory database, with a limiter whose store logs every key. */
async function emailLinkRoutes() {
  const database = openSqliteFile(":memory:");
  await applyMigrations(database, [...userMigrations, authTokensMigration]);
  const memory = new MemoryRateLimitStore();
  const storedKeys: string[] = [];
  const store: RateLimitStore = {
    increment(key, windowStart, windowMs) {
      storedKeys.push(key);
      return memory.increment(key, windowStart, windowMs);
    },
  };
  const users = new SqlUserStore(database);
  const routes = routeRequests(
    htmlEmailLinkRoutes({
      users,
      sessions,
      emailedTokens: new SqlEmailedTokenStore(database),
      mailer: new MemoryMailer(),
      appUrl: "http://app.example",
      rateLimiter: createRateLimiter({ store, clock }),
      pages: defaultAccountPages(({ title }) => `<title>${title}</title>`),
      clock,
    }),
  );
  const paths = { requestMagicLink: "/magic_link", requestPasswordReset: "/passwords" };

  /** Posts `email` to a link route from `clientAddress`: the answer and the flashes it left. */
  async function request(
    route: "requestMagicLink" | "requestPasswordReset",
    email: string,
    clientAddress = "203.0.113.7",
  ) {
    const request = new Request(`http://app.example${paths[route]}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email }),
    });
    const session = await sessions.read(request);
    const response = (await routes(request, { clientAddress, session }))!;
    return {
      status: response.status,
      location: response.headers.get("location"),
      flashes: session.takeFlashes(),
    };
  }
  return { request, storedKeys, users, database };
}

describe("sign-in link and password reset requests", () => {
  for (const route of ["requestMagicLink", "requestPasswordReset"] as const) {
    it(`${route}: refuses an email over 254 characters before any store is touched, answering as for an invalid email`, async () => {
      const { request, storedKeys, database } = await emailLinkRoutes();
      const invalid = await request(route, "not-an-email");
      storedKeys.length = 0;
      const tooLong = `${"a".repeat(MAXIMUM_EMAIL_LENGTH - "@example.com".length + 1)}@example.com`;
      for (const email of [tooLong, `${"a".repeat(1_000_000)}@example.com`]) {
        expect(await request(route, email)).toEqual(invalid);
      }
      expect(invalid).toMatchObject({ status: 303, location: "/login" });
      expect(storedKeys).toEqual([]);
      const tokens = await database.get<{ count: number }>(
        "SELECT count(*) AS count FROM auth_tokens",
      );
      expect(tokens?.count).toBe(0);
    });
  }

  it("still counts an email of exactly 254 characters, per client and per email", async () => {
    const { request, storedKeys } = await emailLinkRoutes();
    const longest = `${"a".repeat(MAXIMUM_EMAIL_LENGTH - "@example.com".length)}@example.com`;
    expect((await request("requestMagicLink", longest)).status).toBe(303);
    expect(storedKeys).toHaveLength(2);
    expect(storedKeys[0]).toBe('["magic_link","203.0.113.7"]');
  });

  it("skips the per-email count once the per-client limit refused", async () => {
    const { request, storedKeys } = await emailLinkRoutes();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await request("requestMagicLink", `person${attempt}@example.com`)).status).toBe(303);
    }
    storedKeys.length = 0;
    const refused = await request("requestMagicLink", "victim@example.com");
    expect(refused.status).toBe(429);
    expect(storedKeys).toEqual(['["magic_link","203.0.113.7"]']);
    // The target email was not counted: another client may still ask for its link 10 times.
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await request("requestMagicLink", "victim@example.com", "198.51.100.1")).status).toBe(
        303,
      );
    }
  });
});
