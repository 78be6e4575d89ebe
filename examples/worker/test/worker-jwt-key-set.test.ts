// JWT_ALGORITHM=EdDSA on the Worker (issue 49), over JSON in workerd through `npm run dev`: the
// first signing key is made at first start and kept sealed in D1, tokens are signed with it by
// WebCrypto, and jose verifies them through the key set the Worker publishes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchFrom } from "./loopback-client.js";
import { d1Rows, startWorker, type WorkerProcess } from "./worker-process.js";

const PASSWORD = "correct horse battery staple";
const APP_URL = "https://app.example";
const folder = mkdtempSync(join(tmpdir(), "tessera-worker-jwks-"));
const databasePath = join(folder, "app.db");
let worker: WorkerProcess;

beforeAll(async () => {
  worker = await startWorker({ DATABASE_PATH: databasePath, APP_URL, JWT_ALGORITHM: "EdDSA" });
}, 90_000);

afterAll(async () => {
  await worker?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function post(client: string, path: string, json: unknown) {
  return fetchFrom(client, `${worker.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
}

describe("EdDSA tokens on the Worker", () => {
  it("signs with a key kept in D1 and publishes the key set jose verifies them with", async () => {
    const email = `keys.${Date.now()}@example.com`;
    expect(
      (await post("127.0.3.2", "/api/auth/signup", { email, password: PASSWORD })).status,
    ).toBe(201);
    const issued = await post("127.0.3.3", "/api/auth/token", { email, password: PASSWORD });
    expect(issued.status).toBe(200);
    const { token } = (await issued.json()) as { token: string };
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "EdDSA", kid: expect.any(String) });

    const me = await fetchFrom("127.0.3.4", `${worker.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
    const keySet = createRemoteJWKSet(new URL(`${worker.url}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, keySet, { issuer: APP_URL, algorithms: ["EdDSA"] });
    expect(payload.iss).toBe(APP_URL);
    expect(d1Rows(databasePath)("SELECT kid FROM signing_keys")).toHaveLength(1);
  });
});
