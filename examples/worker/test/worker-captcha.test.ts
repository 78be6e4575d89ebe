// The captcha on the Worker (issue 48), in workerd through `npm run dev`: CAPTCHA_* settings
// pointing at a siteverify double on 127.0.0.1, which the Worker reaches with the runtime's own
// fetch (it gives accounts no `captchaFetch`, so OUTBOUND_ALLOW_HOSTS plays no part; miniflare's
// workerd reaches loopback). A sign-up without a token, or with one the double refuses, is 400
// `captcha_failed` and makes no user; one with an accepted token is 201.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GOOD_TOKEN,
  type SiteverifyDouble,
  startSiteverifyDouble,
} from "../../../test/support/siteverify-double.js";
import { fetchFrom } from "./loopback-client.js";
import { d1Rows, startWorker, type WorkerProcess } from "./worker-process.js";

const SECRET = "0x4AAAAAAA-worker-secret";
const PASSWORD = "correct horse battery staple";

const folder = mkdtempSync(join(tmpdir(), "tessera-worker-captcha-"));
const databasePath = join(folder, "app.db");
let double: SiteverifyDouble;
let worker: WorkerProcess;
let clients = 0;

beforeAll(async () => {
  double = await startSiteverifyDouble(SECRET);
  worker = await startWorker({
    DATABASE_PATH: databasePath,
    MAIL_ADAPTER: "log",
    CAPTCHA_PROVIDER: "turnstile",
    CAPTCHA_SITE_KEY: "0x4AAAAAAA-site-key",
    CAPTCHA_SECRET: SECRET,
    CAPTCHA_VERIFY_URL: double.url,
  });
}, 90_000);

afterAll(async () => {
  await worker?.stop();
  await double?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** `POST /api/auth/signup` from a loopback address of its own. */
async function signUp(body: Record<string, unknown>) {
  const client = `127.0.5.${++clients + 1}`;
  const response = await fetchFrom(client, `${worker.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown> & {
    error?: { code: string };
  };
  return { status: response.status, code: json.error?.code, json, client };
}

const usersWith = (email: string) =>
  d1Rows(databasePath)<{ id: number }>("SELECT id FROM users WHERE email = ?", email);

describe("the captcha on the Worker", () => {
  it("refuses a sign-up without a token or with a refused one: 400 captcha_failed, no user", async () => {
    for (const token of [undefined, "forged-token"]) {
      const email = `captcha.${Date.now()}.${clients}@example.com`;
      const answer = await signUp({
        email,
        password: PASSWORD,
        ...(token === undefined ? {} : { captcha_token: token }),
      });
      expect([answer.status, answer.code], String(token)).toEqual([400, "captcha_failed"]);
      expect(usersWith(email)).toEqual([]);
    }
  });

  it("creates the user with an accepted token, verified at the double with the secret and the client's address", async () => {
    const before = double.received.length;
    const email = `captcha.ok.${Date.now()}@example.com`;
    const answer = await signUp({ email, password: PASSWORD, captcha_token: GOOD_TOKEN });
    expect(answer.status).toBe(201);
    expect(usersWith(email)).toHaveLength(1);
    const verifications = double.received.slice(before);
    expect(verifications).toHaveLength(1);
    expect(verifications[0]!.form).toMatchObject({
      secret: SECRET,
      response: GOOD_TOKEN,
      remoteip: answer.client,
    });
  });
});
