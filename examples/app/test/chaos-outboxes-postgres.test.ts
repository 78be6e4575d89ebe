// Chaos on PostgreSQL for the two outboxes: the app (started as `npm start` starts it) sends
// mails to a real SMTP server and note.created webhooks to a receiver, both on 127.0.0.1, while
// its database server is restarted, then while the app itself is killed with SIGKILL, each time
// with a mail and a webhook under way. Every item must arrive at least once, each with its one
// idempotency key (the Message-ID of a mail, the webhook-id of a delivery), and no row may be
// lost. The app is a process, so this tests whichever outbox runner it runs.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgres, type PgDatabase } from "@tessera/postgres/pg";
import { SMTPServer } from "smtp-server";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PostgresCluster,
  startPostgresCluster,
} from "../../../test/support/postgres-cluster.js";
import { type AppProcess, listeningUrl, spawnApp } from "./support/app-process.js";
import { Browser } from "./support/browser.js";

// Starting the app compiles its TypeScript: a minute on a two-core machine with a load of 20.
const STARTUP_MS = 60_000;
// How long each step of the chaos may take to show (an item under way, every item delivered).
const STEP_MS = 30_000;
// Mails and notes (so webhooks) per round.
const ITEMS = 8;
// A lease older than this belongs to a delivery that is no longer under way: both servers here
// answer at once once released, so a live delivery holds its lease for far less.
const STALE_LEASE_MS = 3_000;
const SENDER = "no-reply@tessera.test";

/** Resolves once `check` holds, polling; throws naming `what` after `timeoutMs`. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = STEP_MS) {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * A recorder of deliveries that can hold its answers: while `holding`, each delivery is recorded
 * as it arrives but not answered, so the sender's attempt stays under way until `release()`.
 */
class Recorder<Delivery> {
  readonly deliveries: Delivery[] = [];
  #holding = false;
  #held: (() => void)[] = [];

  /** Records `delivery`, then answers it with `answer` now or, while holding, on release. */
  record(delivery: Delivery, answer: () => void): void {
    this.deliveries.push(delivery);
    if (this.#holding) this.#held.push(answer);
    else answer();
  }
  hold(): void {
    this.#holding = true;
  }
  /** How many deliveries wait for their answer. */
  get held(): number {
    return this.#held.length;
  }
  /** Answers every held delivery (a dead sender's connection gets it too) and stops holding. */
  release(): void {
    this.#holding = false;
    for (const answer of this.#held.splice(0)) answer();
  }
}

/** A mail as the SMTP server received it. */
interface ReceivedMail {
  readonly messageId: string;
  readonly to: string;
}

/** A real SMTP server on 127.0.0.1 recording every mail it receives. */
async function startSmtpServer() {
  const recorder = new Recorder<ReceivedMail>();
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? "";
        const to = session.envelope.rcptTo.map((recipient) => recipient.address).join(",");
        recorder.record({ messageId, to }, () => callback());
      });
    },
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const port = (server.server.address() as AddressInfo).port;
  return {
    recorder,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** A webhook delivery as the receiver verified it. */
interface ReceivedWebhook {
  readonly webhookId: string;
  readonly noteId: number;
}

/** A receiver on 127.0.0.1 verifying and recording every note.created delivery. */
async function startReceiver() {
  const recorder = new Recorder<ReceivedWebhook>();
  let secret = "";
  const server = createServer((request, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const event = new Webhook(secret).verify(
        Buffer.concat(chunks).toString(),
        request.headers as Record<string, string>,
      ) as { type: string; data: { id: number } };
      const webhookId = String(request.headers["webhook-id"]);
      recorder.record({ webhookId, noteId: event.data.id }, () => response.writeHead(204).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    recorder,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    setSecret: (value: string) => {
      secret = value;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

let server: PostgresCluster;
let database: PgDatabase;
let folder: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let settings: Record<string, string>;
let app: AppProcess;
let url: string;
let token: string;

beforeAll(async () => {
  // A server of this file's own, restarted below; its commits survive an immediate stop.
  server = await startPostgresCluster({ crashSafeCommits: true });
  database = openPostgres(server.url, { max: 2 });
  folder = mkdtempSync(join(tmpdir(), "tessera-chaos-outboxes-"));
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  settings = {
    PORT: "0",
    DATABASE_URL: server.url,
    SECRET_KEY_BASE: "chaos-outboxes-".repeat(4),
    MAIL_ADAPTER: "smtp",
    SMTP_URL: smtp.url,
    MAIL_FROM: `Tessera <${SENDER}>`,
    OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    OUTBOUND_RETRY_SCHEDULE: Array(20).fill("0.5").join(","),
    // Each Browser comes from an address of its own, so sign-ups are not rate limited.
    TRUST_PROXY: "1",
  };
  app = spawnApp(folder, settings);
  url = await listeningUrl(app, STARTUP_MS);
  token = await ownerToken();
  const endpoint = await postJson("/api/webhook_endpoints", { url: receiver.url });
  expect(endpoint.status).toBe(201);
  receiver.setSecret(((await endpoint.json()) as { secret: string }).secret);
}, STARTUP_MS + 30_000);

afterAll(async () => {
  await app?.stop();
  await database?.close();
  server?.stop();
  await smtp?.close();
  await receiver?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
}, 30_000);

async function postJson(path: string, json: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": "198.51.100.7",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(json),
  });
}

/** Signs up the user who writes the notes and returns a bearer token of theirs. */
async function ownerToken(): Promise<string> {
  const credentials = { email: "owner@example.com", password: "password123" };
  expect((await postJson("/api/auth/signup", credentials)).status).toBe(201);
  const issued = await postJson("/api/auth/token", credentials);
  expect(issued.status).toBe(200);
  return ((await issued.json()) as { token: string }).token;
}

/** What a round put into the outboxes: the addresses mailed and the notes written. */
interface Round {
  readonly emails: string[];
  readonly noteIds: number[];
  /** When the round began, as the app's rows count time. */
  readonly since: number;
}

/**
 * With both servers holding their answers, signs up ITEMS users (a confirmation mail each) and
 * writes ITEMS notes (a note.created webhook each), and resolves once a mail and a webhook are
 * under way: received, unanswered.
 */
async function startRound(prefix: string): Promise<Round> {
  const since = Date.now();
  smtp.recorder.hold();
  receiver.recorder.hold();
  const emails = Array.from({ length: ITEMS }, (_, index) => `${prefix}-${index}@example.com`);
  for (const email of emails) {
    const answer = await new Browser(url).post("/signup", { email, password: "password123" });
    expect(answer.status).toBe(303);
  }
  const noteIds: number[] = [];
  for (let index = 0; index < ITEMS; index++) {
    const answer = await postJson("/api/notes", { title: `${prefix} note ${index}` });
    expect(answer.status).toBe(201);
    noteIds.push(((await answer.json()) as { id: number }).id);
  }
  await until(
    () => smtp.recorder.held > 0 && receiver.recorder.held > 0,
    "a mail and a webhook under way",
  );
  return { emails, noteIds, since };
}

interface OutboxRow {
  queue: string;
  idempotency_key: string;
  status: string;
  payload: string;
}

/** The outbox rows the round wrote: its mails (by address) and its webhooks (by time). */
async function roundRows(round: Round): Promise<{ mails: OutboxRow[]; webhooks: OutboxRow[] }> {
  const rows = await database.all<OutboxRow>(
    "SELECT queue, idempotency_key, status, payload FROM outbox_items WHERE created_at >= ? ORDER BY id",
    [round.since],
  );
  return {
    mails: rows.filter(
      (row) =>
        row.queue === "mail" && round.emails.some((email) => row.payload.includes(`"${email}"`)),
    ),
    webhooks: rows.filter((row) => row.queue === "webhook"),
  };
}

/**
 * Waits until every row of the round is done. A row whose delivery the chaos cut (its mark
 * failed with the database down, or its process died) keeps its lease, a minute for a mail: a
 * lease that has not moved for STALE_LEASE_MS is ended instead, which plays that wait without
 * sleeping through it. Leases under way move on at once, since both servers answer at once now.
 */
async function deliverEverything(
  round: Round,
): Promise<{ mails: OutboxRow[]; webhooks: OutboxRow[] }> {
  await until(async () => {
    const now = Date.now();
    await database.run(
      "UPDATE outbox_items SET lease_until = ? WHERE status = 'pending' AND lease_until > ? AND updated_at < ?",
      [now, now, now - STALE_LEASE_MS],
    );
    const { mails, webhooks } = await roundRows(round);
    return [...mails, ...webhooks].every((row) => row.status === "done");
  }, "every item of the round delivered");
  return roundRows(round);
}

/** The Message-ID the mail of `idempotencyKey` carries (see @tessera/mail's SMTP transport). */
function messageIdOf(idempotencyKey: string): string {
  return `<${createHash("sha256").update(idempotencyKey).digest("hex")}@tessera.test>`;
}

/**
 * None lost, each once at least with its one key: a row per mail and per note, each done; each
 * mail row's Message-ID arrived, only at its address; each note's event arrived under one
 * webhook-id, that of its row.
 */
async function expectEachDeliveredWithItsKey(round: Round) {
  const { mails, webhooks } = await deliverEverything(round);

  expect(mails).toHaveLength(round.emails.length);
  expect(new Set(mails.map((row) => row.idempotency_key)).size).toBe(mails.length);
  const received = smtp.recorder.deliveries;
  for (const row of mails) {
    const email = round.emails.find((address) => row.payload.includes(`"${address}"`))!;
    const copies = received.filter((mail) => mail.messageId === messageIdOf(row.idempotency_key));
    expect(copies.length, `mail to ${email}`).toBeGreaterThanOrEqual(1);
    expect(new Set(copies.map((mail) => mail.to))).toEqual(new Set([email]));
  }
  // Every mail the round's addresses got carries the Message-ID of one of the round's rows.
  const keys = new Set(mails.map((row) => messageIdOf(row.idempotency_key)));
  expect(
    received.filter((mail) => round.emails.includes(mail.to) && !keys.has(mail.messageId)),
  ).toEqual([]);

  expect(webhooks).toHaveLength(round.noteIds.length);
  const deliveries = receiver.recorder.deliveries.filter((delivery) =>
    round.noteIds.includes(delivery.noteId),
  );
  const rowMessageIds = webhooks.map((row) => row.idempotency_key.split(".")[0]).sort();
  const idsPerNote = round.noteIds.map(
    (noteId) =>
      new Set(deliveries.filter((delivery) => delivery.noteId === noteId).map((d) => d.webhookId)),
  );
  expect(idsPerNote.map((ids) => ids.size)).toEqual(round.noteIds.map(() => 1));
  expect(idsPerNote.map((ids) => [...ids][0]).sort()).toEqual(rowMessageIds);
  return { mails, webhooks };
}

describe("the mail and webhook outboxes under chaos on PostgreSQL", () => {
  it(
    "deliver every item at least once with its key when the database restarts mid-delivery",
    async () => {
      const round = await startRound("restart");
      await server.halt("immediate");
      // The attempts under way succeed now, with no database to mark them done in.
      smtp.recorder.release();
      receiver.recorder.release();
      await server.resume();

      await expectEachDeliveredWithItsKey(round);
    },
    3 * STEP_MS,
  );

  it(
    "deliver every item at least once with its key when the app is killed mid-delivery and restarted",
    async () => {
      const round = await startRound("kill");
      const cutMail = smtp.recorder.deliveries.at(-1)!;
      const cutWebhook = receiver.recorder.deliveries.at(-1)!;
      app.child.kill("SIGKILL");
      expect(await app.exited).toBeNull();
      await app.stop();
      smtp.recorder.release();
      receiver.recorder.release();

      app = spawnApp(folder, settings);
      url = await listeningUrl(app, STARTUP_MS);
      await expectEachDeliveredWithItsKey(round);
      // The two deliveries the kill cut were made again, with the same keys.
      const mails = smtp.recorder.deliveries.filter((mail) => mail.messageId === cutMail.messageId);
      expect(mails.length).toBeGreaterThanOrEqual(2);
      const webhooks = receiver.recorder.deliveries.filter(
        (delivery) => delivery.webhookId === cutWebhook.webhookId,
      );
      expect(webhooks.length).toBeGreaterThanOrEqual(2);
    },
    STARTUP_MS + 3 * STEP_MS,
  );
});
