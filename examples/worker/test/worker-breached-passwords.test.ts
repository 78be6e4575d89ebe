// The breached-password check on the Worker: PWNED_PASSWORDS=1 against a Have I Been Pwned
// double on 127.0.0.1, reached through the Worker's guarded fetch (OUTBOUND_ALLOW_HOSTS), in
// workerd through `npm run dev`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type PwnedPasswordsDouble,
  sha1Upper,
  startPwnedPasswordsDouble,
} from "../../../test/support/pwned-passwords-double.js";
import { fetchFrom } from "./loopback-client.js";
import { d1Rows, startWorker, type WorkerProcess } from "./worker-process.js";

const BREACHED = "correct horse battery staple";
const CLEAN = "an unknown passphrase of mine";

const folder = mkdtempSync(join(tmpdir(), "tessera-worker-pwned-"));
const databasePath = join(folder, "app.db");
let double: PwnedPasswordsDouble;
let worker: WorkerProcess;
let clients = 0;

beforeAll(async () => {
  double = await startPwnedPasswordsDouble();
  double.breach(BREACHED, 3_861);
  worker = await startWorker({
    DATABASE_PATH: databasePath,
    PWNED_PASSWORDS: "1",
    PWNED_PASSWORDS_URL: double.url,
    OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
  });
}, 90_000);

afterAll(async () => {
  await worker?.stop();
  await double?.close();
  rmSync(folder, { recursive: true, force: true });
});

afterEach(() => {
  double.mode = "ranges";
});

async function signUp(email: string, password: string) {
  const response = await fetchFrom(`127.0.3.${++clients + 1}`, `${worker.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const usersWith = (email: string) =>
  d1Rows(databasePath)<{ id: number }>("SELECT id FROM users WHERE email = ?", email);

describe("breached passwords on the Worker", () => {
  it("refuses a breached password at sign-up (422 on password), sending only the prefix", async () => {
    const email = `pwned.${Date.now()}@example.com`;
    const refused = await signUp(email, BREACHED);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: "validation_failed",
      fields: { password: ["has appeared in a data breach; choose another"] },
    });
    expect(usersWith(email)).toEqual([]);
    const hash = sha1Upper(BREACHED);
    expect(double.requests.map((request) => request.path)).toContain(`/range/${hash.slice(0, 5)}`);
    expect(JSON.stringify(double.requests).toUpperCase()).not.toContain(hash.slice(5));
  });

  it("creates the user with a clean password", async () => {
    const email = `clean.${Date.now()}@example.com`;
    expect((await signUp(email, CLEAN)).status).toBe(201);
    expect(usersWith(email)).toHaveLength(1);
  });

  it("lets a breached password through when the service does not answer in time", async () => {
    double.mode = "stall";
    const email = `stalled.${Date.now()}@example.com`;
    expect((await signUp(email, BREACHED)).status).toBe(201);
    expect(usersWith(email)).toHaveLength(1);
  });
});
