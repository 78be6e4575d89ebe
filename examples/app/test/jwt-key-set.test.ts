// JWT_ALGORITHM=EdDSA|ES256 in the app, over real HTTP on the suite's engine: tokens carry
// kid, iss and aud, work on every bearer route, and verify with jose through the key set the
// app publishes at /.well-known/jwks.json, which holds no private part. HS256 stays as it was.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const APP_URL = "https://app.example";
const PASSWORD = "correct horse battery";
const servers: TestServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

async function tokenFrom(server: TestServer): Promise<{ token: string; id: number }> {
  const email = `keys.${Date.now()}.${Math.random()}@example.com`;
  const headers = { "content-type": "application/json", "x-forwarded-for": newClientAddress() };
  const body = JSON.stringify({ email, password: PASSWORD });
  const created = await fetch(`${server.url}/api/auth/signup`, { method: "POST", headers, body });
  const { id } = (await created.json()) as { id: number };
  const answer = await fetch(`${server.url}/api/auth/token`, { method: "POST", headers, body });
  expect(answer.status).toBe(200);
  return { token: ((await answer.json()) as { token: string }).token, id };
}

for (const algorithm of ["EdDSA", "ES256"] as const) {
  describe(`JWT_ALGORITHM=${algorithm}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        TRUST_PROXY: "1",
        APP_URL,
        JWT_ALGORITHM: algorithm,
        JWT_AUDIENCE: "tessera-tests",
      });
      servers.push(server);
    });

    it("signs tokens other services verify through the published key set", async () => {
      const { token, id } = await tokenFrom(server);
      const header = decodeProtectedHeader(token);
      expect(header).toMatchObject({ alg: algorithm, kid: expect.any(String) });

      const me = await fetch(`${server.url}/api/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);

      const published = await fetch(`${server.url}/.well-known/jwks.json`);
      expect(published.status).toBe(200);
      expect(published.headers.get("cache-control")).toBe("public, max-age=300");
      const jwks = (await published.json()) as { keys: Record<string, unknown>[] };
      expect(jwks.keys.map((key) => key.kid)).toContain(header.kid);
      for (const key of jwks.keys) {
        expect(key).toMatchObject({ alg: algorithm, use: "sig" });
        expect(key.d).toBeUndefined();
      }

      const keySet = createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks.json`));
      const { payload } = await jwtVerify(token, keySet, {
        issuer: APP_URL,
        audience: "tessera-tests",
        algorithms: [algorithm],
      });
      expect(payload.sub).toBe(String(id));
    });

    it("keeps one key in the database, sealed, and refuses a token signed otherwise", async () => {
      const rows = await server.query<{ kid: string; sealed: string }>(
        "SELECT * FROM signing_keys",
      );
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows[0])).not.toMatch(/"d":/);
      const { token } = await tokenFrom(server);
      const [head, body] = token.split(".");
      const forged = `${head}.${body}.${"A".repeat(86)}`;
      const refused = await fetch(`${server.url}/api/auth/me`, {
        headers: { authorization: `Bearer ${forged}` },
      });
      expect(refused.status).toBe(401);
    });
  });
}

describe("JWT_ALGORITHM left out", () => {
  it("signs HS256 tokens as before and publishes no key set", async () => {
    const server = await startTestServer({ TRUST_PROXY: "1", APP_URL });
    servers.push(server);
    const { token } = await tokenFrom(server);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    expect((await fetch(`${server.url}/.well-known/jwks.json`)).status).toBe(404);
  });
});
