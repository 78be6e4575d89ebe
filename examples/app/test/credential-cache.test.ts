// CREDENTIAL_CACHE_MS: users and API keys served from memory. The spec's "a deleted user's
// tokens stop working" holds at once in the process that deleted, and within the setting in
// another process on the same database file (real clock).
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { type RunningServer, startServer } from "../src/server.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const SECRET = "e2e-secret-".repeat(6);
const OTHER_PROCESS_STALENESS_MS = 1_000;
let here: TestServer;
let other: RunningServer;

beforeAll(async () => {
  here = await startTestServer({ SECRET_KEY_BASE: SECRET, CREDENTIAL_CACHE_MS: "60000" });
  // A second app on the same SQLite file: another process, as WEB_CONCURRENCY would start.
  other = await startServer(
    loadConfig({
      PORT: "0",
      DATABASE_PATH: here.databasePath,
      SECRET_KEY_BASE: SECRET,
      CREDENTIAL_CACHE_MS: String(OTHER_PROCESS_STALENESS_MS),
    }),
    { mailer: new MemoryMailer() },
  );
});
afterAll(async () => {
  await other.close();
  await here.stop();
});

async function call(base: string, path: string, token: string, init: RequestInit = {}) {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "x-forwarded-for": newClientAddress(),
    },
  });
  await response.body?.cancel();
  return response.status;
}

let accounts = 0;
/** A new account with a JWT and an API key, each used once on both apps (so both cached). */
async function cachedAccount() {
  const credentials = { email: `cached${++accounts}@example.com`, password: "correct horse" };
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${here.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": newClientAddress(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  expect((await post("/api/auth/signup", credentials)).status).toBe(201);
  const { token: jwt } = (await (await post("/api/auth/token", credentials)).json()) as {
    token: string;
  };
  const created = (await (await post("/api/auth/keys", { name: "ci" }, jwt)).json()) as {
    api_key: { id: number };
    key: string;
  };
  const { key } = created;
  const keyId = created.api_key.id;
  for (const base of [here.url, other.url]) {
    for (const token of [jwt, key]) expect(await call(base, "/api/auth/me", token)).toBe(200);
  }
  return { ...credentials, jwt, key, keyId };
}

describe("CREDENTIAL_CACHE_MS", () => {
  it("ends a deleted account's JWT and keys at once in the process that deleted it", async () => {
    const account = await cachedAccount();
    const deleted = await call(here.url, "/api/auth/me", account.jwt, {
      method: "DELETE",
      body: JSON.stringify({ password: account.password }),
    });
    expect(deleted).toBe(204);
    expect(await call(here.url, "/api/auth/me", account.jwt)).toBe(401);
    expect(await call(here.url, "/api/auth/me", account.key)).toBe(401);
  });

  it("ends a revoked key at once in the process that revoked it", async () => {
    const account = await cachedAccount();
    const revoked = await call(here.url, `/api/auth/keys/${account.keyId}`, account.jwt, {
      method: "DELETE",
    });
    expect(revoked).toBe(204);
    expect(await call(here.url, "/api/auth/me", account.key)).toBe(401);
    expect(await call(here.url, "/api/auth/me", account.jwt)).toBe(200);
  });

  it("ends them in another process within its setting, by the real clock", async () => {
    const account = await cachedAccount();
    const deleted = await call(here.url, "/api/auth/me", account.jwt, {
      method: "DELETE",
      body: JSON.stringify({ password: account.password }),
    });
    expect(deleted).toBe(204);
    const deletedAt = performance.now();
    // The other process has not asked the database since: its copy still answers.
    expect(await call(other.url, "/api/auth/me", account.jwt)).toBe(200);
    while ((await call(other.url, "/api/auth/me", account.jwt)) === 200) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const elapsed = performance.now() - deletedAt;
    expect(await call(other.url, "/api/auth/me", account.jwt)).toBe(401);
    expect(await call(other.url, "/api/auth/me", account.key)).toBe(401);
    // Within the setting, with room for a slow machine's scheduling.
    expect(elapsed).toBeLessThan(OTHER_PROCESS_STALENESS_MS + 1_000);
  });
});
