// The Worker's mail settings, in workerd through `npm run dev`: MAIL_ADAPTER=resend with
// MAIL_API_URL at a double on 127.0.0.1, and MAIL_ADAPTER=cloudflare on miniflare's send_email
// binding. Each sends a password reset mail, as a user asking for one would. Mail goes through
// the outbox in D1 and is delivered after the answer: by a Queues consumer where the Worker has
// the OUTBOX_QUEUE binding (the Resend one here), through waitUntil where it has not (the
// binding one), and retried by the cron trigger. Notes' webhook events to a user's endpoint on the
// double go the same ways.
import { readFileSync } from "node:fs";
import { simpleParser } from "mailparser";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { fetchFrom } from "./loopback-client.js";
import { startWorker, type WorkerProcess } from "./worker-process.js";

const PASSWORD = "correct horse battery staple";
const FROM = "Notes <no-reply@notes.example>";
const API_KEY = "re_worker_test_5b8c";

let double: RecordingService;
let resendWorker: WorkerProcess;
let bindingWorker: WorkerProcess;
let clients = 0;

beforeAll(async () => {
  double = await startRecordingService({ status: 200, body: '{"id":"sent-1"}' });
  const shared = { MAIL_FROM: FROM, APP_URL: "https://app.example" };
  [resendWorker, bindingWorker] = await Promise.all([
    startWorker(
      {
        ...shared,
        MAIL_ADAPTER: "resend",
        RESEND_API_KEY: API_KEY,
        MAIL_API_URL: new URL(double.url).origin,
        // The cron trigger every second, so a retry comes as soon as the mail is due again.
        SWEEP_INTERVAL_SECONDS: "1",
        // A user's webhook endpoint on the double's address (127.0.0.1).
        OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      },
      ["--config", "test/fixtures/wrangler-with-queue.json"],
    ),
    startWorker({ ...shared, MAIL_ADAPTER: "cloudflare", OUTBOUND_ALLOW_HOSTS: "127.0.0.1" }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([resendWorker?.stop(), bindingWorker?.stop()]);
  await double.close();
});

/** The requests Resend's double got for the reset mail of `email`. */
function resetsTo(email: string) {
  return double.requests.filter((request) => {
    const body = JSON.parse(request.body) as { to: string[]; subject: string };
    return body.to[0] === email && body.subject === "Reset your password";
  });
}

/** Signs a new user up on `worker` and asks for a password reset mail; returns the email. */
async function requestReset(worker: WorkerProcess): Promise<string> {
  const email = `mail.${Date.now()}.${++clients}@example.com`;
  const client = `127.0.1.${clients + 1}`;
  const signup = await fetchFrom(client, `${worker.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(signup.status).toBe(201);
  const reset = await fetchFrom(client, `${worker.url}/passwords`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: worker.url },
    body: new URLSearchParams({ email }),
  });
  expect(reset.status).toBe(303);
  return email;
}

/**
 * Signs a new user up on `worker`, registers an endpoint at `path` on the double (127.0.0.1)
 * and creates a note; waits for the double to get its note.created, verified with the secret.
 */
async function createNoteWithEndpoint(worker: WorkerProcess, path: string): Promise<void> {
  const email = `hooks.${Date.now()}.${++clients}@example.com`;
  const client = `127.0.1.${clients + 1}`;
  const post = (route: string, json: unknown, token?: string) =>
    fetchFrom(client, `${worker.url}${route}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(json),
    });
  expect((await post("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  const issued = await post("/api/auth/token", { email, password: PASSWORD });
  const { token } = (await issued.json()) as { token: string };
  const added = await post(
    "/api/webhook_endpoints",
    { url: `${new URL(double.url).origin}${path}` },
    token,
  );
  expect(added.status).toBe(201);
  const { secret } = (await added.json()) as { secret: string };
  const created = await post("/api/notes", { title: "Sent from the Worker" }, token);
  expect(created.status).toBe(201);
  const note = await created.json();
  const deliveries = () => double.requests.filter((request) => request.path === path);
  await expect.poll(() => deliveries().length, { timeout: 10_000 }).toBe(1);
  const event = new Webhook(secret).verify(
    deliveries()[0]!.body,
    deliveries()[0]!.headers as Record<string, string>,
  ) as { type: string; data: unknown };
  expect(event).toMatchObject({ type: "note.created", data: note });
}

const RESET_LINK = /https:\/\/app\.example\/passwords\/[A-Za-z0-9_-]{43}/;

describe("mail from the Worker", () => {
  it("sends the password reset through Resend's API at MAIL_API_URL, with the key as Bearer", async () => {
    const email = await requestReset(resendWorker);
    const resets = () => resetsTo(email);
    // Delivery may come shortly after the answer (an outbox sends it in the background).
    await expect.poll(() => resets().length, { timeout: 10_000 }).toBe(1);
    // The request told the queue that mail was waiting, and its consumer drained the outbox
    // (the mail itself goes to whichever drain claims it first: the cron trigger runs too).
    await expect
      .poll(() => resendWorker.output(), { timeout: 10_000 })
      .toMatch(/QUEUE tessera-outbox \d+\/\d+/);
    expect(resendWorker.output()).toMatch(
      /Queue: mail \d+ sent, \d+ to retry, 0 failed; webhooks \d+ sent, \d+ to retry, 0 failed\./,
    );
    const request = resets()[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/emails");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = JSON.parse(request.body) as { from: string; text: string; html: string };
    expect(body.from).toBe(FROM);
    const link = RESET_LINK.exec(body.text)?.[0];
    expect(link).toBeDefined();
    expect(body.html).toContain(`href="${link}"`);
  });

  it("keeps a mail the provider could not take, and the cron trigger sends it once it is due, with the same key", async () => {
    double.answer = { status: 503, body: '{"statusCode":503,"name":"internal_server_error"}' };
    let email: string;
    try {
      email = await requestReset(resendWorker);
      // The adapter's own three tries, right after the answer; then the outbox waits ~10 s.
      await expect.poll(() => resetsTo(email).length, { timeout: 10_000 }).toBe(3);
    } finally {
      double.answer = { status: 200, body: '{"id":"sent-2"}' };
    }
    await expect.poll(() => resetsTo(email).length, { timeout: 30_000, interval: 250 }).toBe(4);
    const keys = resetsTo(email).map((request) => request.headers["idempotency-key"]);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/.{16,}/);
    expect(resendWorker.output()).toMatch(/Scheduled: mail 1 sent, 0 to retry, 0 failed;/);
  }, 45_000);

  it("delivers a note's webhook event through OUTBOX_QUEUE's consumer or the cron trigger, signed", async () => {
    const path = "/queued-hook";
    await createNoteWithEndpoint(resendWorker, path);
    // The queue's consumer or the cron trigger, whichever claimed it first, counts it once its
    // drain is over: shortly after the double answered.
    await expect
      .poll(() => resendWorker.output())
      .toMatch(/(Queue|Scheduled): (mail [^;]*; )?webhooks 1 sent/);
  });

  it("delivers a note's webhook event after the answer through waitUntil, without a queue", async () => {
    // This Worker's cron trigger runs every 300 s, after this test: the drain after the answer
    // is the only one, and it logs no line.
    await createNoteWithEndpoint(bindingWorker, "/waited-hook");
    expect(bindingWorker.output()).not.toMatch(/webhooks \d+ sent/);
  });

  it("hands the password reset to the send_email binding (MAIL_ADAPTER=cloudflare)", async () => {
    const email = await requestReset(bindingWorker);
    // miniflare's binding keeps each message it is handed in a file and prints the file's path.
    const handed = async () => {
      const files = [...bindingWorker.output().matchAll(/Email: (\S+\.eml)/g)].map((m) => m[1]!);
      const mails = await Promise.all(files.map((file) => simpleParser(readFileSync(file))));
      return mails.filter(
        (mail) =>
          mail.to &&
          "text" in mail.to &&
          mail.to.text === email &&
          mail.subject === "Reset your password",
      );
    };
    await expect.poll(async () => (await handed()).length, { timeout: 10_000 }).toBe(1);
    const [mail] = await handed();
    expect(mail!.from?.text).toBe('"Notes" <no-reply@notes.example>');
    const link = RESET_LINK.exec(mail!.text ?? "")?.[0];
    expect(link).toBeDefined();
    expect(mail!.html).toContain(`href="${link}"`);
  });
});
