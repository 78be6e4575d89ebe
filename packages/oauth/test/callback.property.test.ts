import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountEvents, sessionSignIns } from "@tessera/accounts";
import { SqlUserStore, userMigrations } from "@tessera/accounts/sql";
import { systemClock } from "@tessera/core";
import { randomToken } from "@tessera/crypto";
import { routeRequests } from "@tessera/http";
import { identitiesMigration, SqlIdentityStore } from "@tessera/oauth/sql";
import { createSessionCookies } from "@tessera/session";
// Until @tessera/sqlite's index exports them: then `from "@tessera/sqlite"`.
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAUTH_SESSION_VALUES, oauthMessages, oauthRoutes, openIdProvider } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-oauth-property-"));
const database = openSqliteFile(join(folder, "app.db"));
beforeAll(() => applyMigrations(database, [...userMigrations, identitiesMigration]));
afterAll(() => {
  database.close();
  rmSync(folder, { recursive: true, force: true });
});

const sessions = createSessionCookies({
  appName: "tessera",
  secrets: { current: "a-secret-key-base-of-at-least-thirty-two-characters" },
});
const outbound: string[] = [];
const route = routeRequests(
  oauthRoutes({
    sessions,
    signIns: sessionSignIns({ sessions, events: accountEvents(), clock: systemClock }),
    providers: [
      openIdProvider({
        name: "idp",
        issuer: "https://idp.example",
        clientId: "app",
        clientSecret: "secret",
      }),
    ],
    users: new SqlUserStore(database),
    identities: new SqlIdentityStore(database),
    appUrl: "https://app.example",
    // Any request to the provider is a failure of the property: it is recorded, never sent.
    fetch: async (url) => {
      outbound.push(url);
      throw new Error("no provider request expected");
    },
  }),
);

const parameterName = fc.oneof(
  fc.constantFrom("state", "code", "error", "iss", "error_description"),
  fc.string({ maxLength: 8 }),
);
const query = fc.array(fc.tuple(parameterName, fc.string({ maxLength: 60 })), { maxLength: 6 });

/** The session of a browser that started a flow at `idp` (or at nothing), and its callback. */
async function callback(started: { state: string; provider: string } | undefined, search: string) {
  const session = await sessions.read(new Request("https://app.example/"));
  if (started) {
    session.set(OAUTH_SESSION_VALUES.state, started.state);
    session.set(OAUTH_SESSION_VALUES.verifier, randomToken());
    session.set(OAUTH_SESSION_VALUES.provider, started.provider);
  }
  const request = new Request(`https://app.example/auth/idp/callback?${search}`);
  const response = (await route(request, { clientAddress: "127.0.0.1", session }))!;
  return { response, session };
}

async function expectStateRefusal(result: Awaited<ReturnType<typeof callback>>) {
  expect(result.response.status).toBe(303);
  expect(result.response.headers.get("location")).toBe("/login");
  expect(result.session.takeFlashes()).toEqual([
    { kind: "alert", message: oauthMessages.english["oauth.state_invalid"] },
  ]);
  for (const name of Object.values(OAUTH_SESSION_VALUES)) {
    expect(result.session.get(name)).toBeUndefined();
  }
  expect(result.session.userId).toBeUndefined();
  expect(outbound).toEqual([]);
  expect(await database.all("SELECT id FROM users")).toEqual([]);
}

describe("the callback, whatever the query", () => {
  it("is refused without a provider request unless the state is the one stored", async () => {
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.option(fc.record({ state: fc.constant(randomToken()), provider: fc.constant("idp") })),
        async (pairs, started) => {
          const search = new URLSearchParams(pairs);
          // Whatever state the query holds, it is not the random one stored.
          await expectStateRefusal(await callback(started ?? undefined, search.toString()));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses a state that differs from the stored one by a single character", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 42 }),
        fc.constantFrom(..."ABCabc012-_"),
        async (index, replacement) => {
          const state = randomToken();
          const changed = `${state.slice(0, index)}${replacement}${state.slice(index + 1)}`;
          fc.pre(changed !== state);
          const search = new URLSearchParams({ code: "a-code", state: changed });
          await expectStateRefusal(await callback({ state, provider: "idp" }, search.toString()));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("refuses the right state from a flow started at another provider", async () => {
    const state = randomToken();
    const search = new URLSearchParams({ code: "a-code", state });
    await expectStateRefusal(await callback({ state, provider: "other" }, search.toString()));
  });
});
