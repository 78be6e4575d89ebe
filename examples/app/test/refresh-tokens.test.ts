// Refresh tokens in the app, over real HTTP on the suite's engine (SQLite, and PostgreSQL in
// its run): REFRESH_TOKEN_TTL sets a family's life, a refresh rotates, a used token past the
// grace revokes the family, DELETE signs the app out; the rows hold digests only.
import { sha256Hex } from "@tessera/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const PASSWORD = "correct horse battery";
const TTL = 86_400;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1", REFRESH_TOKEN_TTL: String(TTL) });
});
afterAll(() => server.stop());

async function call(method: string, path: string, json: unknown, token?: string) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-forwarded-for": newClientAddress(),
    "user-agent": "Tessera Android/2.1",
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: JSON.stringify(json),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as JSON.parse's
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
}

async function appSignIn() {
  const email = `app.${Date.now()}.${Math.random()}@example.com`;
  expect((await call("POST", "/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  const signedIn = await call("POST", "/api/auth/token", {
    email,
    password: PASSWORD,
    refresh: true,
  });
  expect(signedIn.status).toBe(200);
  return { email, ...signedIn.body } as { email: string; token: string; refresh_token: string };
}

describe("an app's sign-in with refresh tokens", () => {
  it("lasts REFRESH_TOKEN_TTL, rotates, and keeps only digests", async () => {
    const { refresh_token: first } = await appSignIn();
    const rows = await server.query<{ digest: string }>(
      "SELECT digest FROM refresh_tokens WHERE digest = ?",
      sha256Hex(first),
    );
    expect(rows).toHaveLength(1);
    const next = await call("POST", "/api/auth/token/refresh", { refresh_token: first });
    expect(next.status).toBe(200);
    expect(next.body.refresh_expires_in).toBeLessThanOrEqual(TTL);
    expect(next.body.refresh_expires_in).toBeGreaterThan(TTL - 60);
    expect(next.body.refresh_token).not.toBe(first);
    const me = await call("GET", "/api/auth/me", undefined, next.body.token);
    expect(me.status).toBe(200);
    const families = await server.query<{ user_agent: string }>(
      "SELECT f.user_agent FROM refresh_token_families f JOIN refresh_tokens t ON t.family_id = f.id WHERE t.digest = ?",
      sha256Hex(first),
    );
    expect(families).toEqual([{ user_agent: "Tessera Android/2.1" }]);
  });

  it("is revoked whole when a used token comes back after the grace", async () => {
    const { refresh_token: first } = await appSignIn();
    const second = await call("POST", "/api/auth/token/refresh", { refresh_token: first });
    expect(second.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const reused = await call("POST", "/api/auth/token/refresh", { refresh_token: first });
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe("invalid_credentials");
    const live = await call("POST", "/api/auth/token/refresh", {
      refresh_token: second.body.refresh_token,
    });
    expect(live.status).toBe(401);
  }, 30_000);

  it("ends with DELETE /api/auth/token/refresh", async () => {
    const { refresh_token } = await appSignIn();
    expect((await call("DELETE", "/api/auth/token/refresh", { refresh_token })).status).toBe(204);
    expect((await call("POST", "/api/auth/token/refresh", { refresh_token })).status).toBe(401);
  });

  it("is listed among the user's devices, and ends there", async () => {
    const { token, refresh_token } = await appSignIn();
    const listed = await call("GET", "/api/auth/sessions", undefined, token);
    expect(listed.status).toBe(200);
    const apps = listed.body.filter((device: { kind: string }) => device.kind === "app");
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({ user_agent: "Tessera Android/2.1", factors: ["password"] });
    const ended = await call("DELETE", `/api/auth/sessions/${apps[0].id}`, undefined, token);
    expect(ended.status).toBe(204);
    expect((await call("POST", "/api/auth/token/refresh", { refresh_token })).status).toBe(401);
    const after = await call("GET", "/api/auth/sessions", undefined, token);
    expect(after.body.filter((device: { kind: string }) => device.kind === "app")).toEqual([]);
  });
});
