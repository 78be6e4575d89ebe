// Chaos on PostgreSQL: the app (WEB_CONCURRENCY=2, started as `npm start` starts it) under a
// steady burst of sign-ups, note writes and webhook deliveries, while its database server is
// restarted, then while its workers are killed with SIGKILL. Nothing the app acknowledged may
// be lost, nothing may happen twice, and a database restart must cost failed requests only.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTimestamp } from "@tessera/core";
import { openPostgres, type PgDatabase } from "@tessera/postgres/pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PostgresCluster,
  startPostgresCluster,
} from "../../../test/support/postgres-cluster.js";
import { type AppProcess, childrenOf, spawnApp, waitForLine } from "./support/app-process.js";
import {
  type Answer,
  AnswerLog,
  type LaneResults,
  type RunningLanes,
  startLanes,
  succeeded,
} from "./support/chaos-lanes.js";

const BILLING_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
// Two workers compile the app's TypeScript as they start: slow on a busy two-core machine.
const STARTUP_MS = 60_000;
// How long each step of the chaos may take to show (a few answers, a restart).
const STEP_MS = 30_000;

let server: PostgresCluster;
let database: PgDatabase;
let folder: string;
let app: AppProcess;
let url: string;
let token: string;

beforeAll(async () => {
  // A server of this file's own: the run's shared one must not be restarted under other suites.
  // Its commits survive an immediate stop, as a real server's do: the test's is no crash of
  // the machine, which only fsync (left off) would guard against.
  server = await startPostgresCluster({ crashSafeCommits: true });
  database = openPostgres(server.url, { max: 2 });
  folder = mkdtempSync(join(tmpdir(), "tessera-chaos-"));
  // The primary runs in the child itself, so that its workers are the child's children.
  app = spawnApp(folder, {
    PORT: "0",
    DATABASE_URL: server.url,
    WEB_CONCURRENCY: "2",
    SECRET_KEY_BASE: "chaos-test-secret-".repeat(4),
    BILLING_WEBHOOK_SECRET: BILLING_SECRET,
    MAIL_ADAPTER: "log",
    TRUST_PROXY: "1",
  });
  const [, listening] = await waitForLine(
    app.output,
    /listening on (http:\/\/127\.0\.0\.1:\d+) \(2 processes\)\n/,
    STARTUP_MS,
  );
  url = listening!;
  token = await ownerToken();
}, STARTUP_MS + 30_000);

afterAll(async () => {
  if (app) {
    app.child.kill("SIGTERM");
    await app.exited;
    await app.stop();
  }
  await database?.close();
  server?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
}, 20_000);

/** Signs up the user who writes the notes and returns a bearer token of theirs. */
async function ownerToken(): Promise<string> {
  const credentials = JSON.stringify({ email: "owner@example.com", password: "password123" });
  const headers = { "content-type": "application/json", "x-forwarded-for": "198.51.100.1" };
  const signUp = await fetch(`${url}/api/auth/signup`, {
    method: "POST",
    headers,
    body: credentials,
  });
  expect(signUp.status).toBe(201);
  const issued = await fetch(`${url}/api/auth/token`, {
    method: "POST",
    headers,
    body: credentials,
  });
  expect(issued.status).toBe(200);
  return ((await issued.json()) as { token: string }).token;
}

/** Waits for `count` more 2xx answers to requests sent from now on. */
function successes(log: AnswerLog, count: number, description: string): Promise<void> {
  const since = Date.now();
  return log.until(description, () => log.countSince(since, succeeded) >= count, STEP_MS);
}

/**
 * Stops the lanes, letting the deliveries still under way end. A delivery whose claim was left
 * `processing` by the chaos (the database went, or the worker died, between claim and mark)
 * is answered 409 for five minutes, until the claim counts as abandoned: once every such
 * delivery has met its claim after the chaos, the claims' times are moved back five minutes,
 * which plays the wait without sleeping through it. Safe, as each event has one sender, which
 * sends again only once answered: no other delivery of the event is under way meanwhile.
 */
async function stopAfterChaos(lanes: RunningLanes, log: AnswerLog): Promise<LaneResults> {
  const chaosEnded = Date.now();
  const stopped = lanes.stop();
  const metClaim = (id: string) =>
    log.countSince(chaosEnded, (answer) => answer.key === id && answer.status === 409) > 0;
  await log.until(
    "answer to every delivery under way after the chaos",
    () => lanes.pendingEvents().every(metClaim),
    STEP_MS,
  );
  await database.run(
    "UPDATE webhook_events SET updated_at = ? WHERE source = 'billing' AND status = 'processing'",
    [formatTimestamp(Date.now() - 10 * 60_000)],
  );
  return stopped;
}

/** Each non-2xx answer is the JSON error envelope of its own status. */
function expectEnvelopes(answers: readonly Answer[]): void {
  const malformed = answers.filter(
    (answer) =>
      answer.status >= 300 &&
      !(
        typeof (answer.body as { error?: { message?: unknown } }).error?.message === "string" &&
        (answer.body as { error: { status: unknown } }).error.status === answer.status
      ),
  );
  expect(malformed).toEqual([]);
}

/**
 * Nothing lost, nothing doubled: each settled sign-up is one user; each note answered 201 is
 * in the table, no note is there twice and none that was not sent; each event was accepted,
 * is `processed`, and its effect (a billing receipt) was recorded once.
 */
async function expectNothingLostOrDoubled(prefix: string, results: LaneResults): Promise<void> {
  expect(results.gaveUp).toEqual([]);
  const like = [`${prefix}-%`];
  const users = await database.all<{ email: string; rows: number }>(
    "SELECT email, count(*) AS rows FROM users WHERE email LIKE ? GROUP BY email ORDER BY email",
    like,
  );
  expect(users).toEqual([...results.signedUp].sort().map((email) => ({ email, rows: 1 })));

  const notes = await database.all<{ id: number; title: string }>(
    "SELECT id, title FROM notes WHERE title LIKE ? ORDER BY id",
    like,
  );
  for (const note of results.notes) expect(notes).toContainEqual(note);
  const titles = notes.map((note) => note.title);
  expect(new Set(titles).size).toBe(titles.length);
  const sent = new Set(results.noteTitles);
  expect(titles.filter((title) => !sent.has(title))).toEqual([]);

  expect([...results.acceptedEvents].sort()).toEqual([...results.events].sort());
  const events = await database.all<{ event_id: string; status: string }>(
    "SELECT event_id, status FROM webhook_events WHERE source = 'billing' AND event_id LIKE ? ORDER BY event_id",
    like,
  );
  expect(events).toEqual(
    [...results.events].sort().map((id) => ({ event_id: id, status: "processed" })),
  );
  const receipts = await database.all<{ event_id: string; rows: number }>(
    `SELECT event_id, count(*) AS rows FROM webhook_receipts
     WHERE source = 'billing' AND event_id LIKE ? GROUP BY event_id ORDER BY event_id`,
    like,
  );
  expect(receipts).toEqual([...results.events].sort().map((id) => ({ event_id: id, rows: 1 })));
}

describe("chaos on PostgreSQL with WEB_CONCURRENCY=2", () => {
  it(
    "rides out two database restarts (fast and immediate) mid-burst: clean 500s meanwhile, then service again, with no process restarted",
    async () => {
      const primary = app.child.pid!;
      const workers = childrenOf(primary).sort();
      expect(workers).toHaveLength(2);
      const log = new AnswerLog();
      const lanes = startLanes({ url, token, billingSecret: BILLING_SECRET, prefix: "db", log });

      for (const mode of ["fast", "immediate"] as const) {
        await successes(log, 10, `10 successes before the ${mode} restart`);
        await server.halt(mode);
        const down = Date.now();
        await log.until(
          `5 answers of 500 while the database is down (${mode})`,
          () => log.countSince(down, (answer) => answer.status === 500) >= 5,
          STEP_MS,
        );
        await server.resume();
        await successes(log, 10, `10 successes after the ${mode} restart`);
      }
      const results = await stopAfterChaos(lanes, log);

      // Every request had an answer in time (no hang, no connection cut by a dying worker),
      // and every failure was the envelope: 500, or 409 for a claim the outage left open.
      expect(answersOtherThan(log, [200, 201, 409, 422, 500])).toEqual([]);
      expectEnvelopes(log.answers);
      expect(
        log.answers.filter(
          (answer) =>
            answer.status === 500 &&
            !["Internal server error", "Webhook processing failed"].includes(
              (answer.body as { error: { message: string } }).error.message,
            ),
        ),
      ).toEqual([]);
      // The same two workers served throughout: none died and was replaced.
      expect(childrenOf(primary).sort()).toEqual(workers);
      expect(app.output()).not.toMatch(/Worker \d ended/);
      await expectNothingLostOrDoubled("db", results);
    },
    4 * STEP_MS,
  );

  it(
    "loses and doubles nothing when workers are killed with SIGKILL mid-burst: each acknowledged write is stored once",
    async () => {
      const primary = app.child.pid!;
      const log = new AnswerLog();
      const lanes = startLanes({ url, token, billingSecret: BILLING_SECRET, prefix: "kill", log });
      const [first, second] = childrenOf(primary);
      const endedBefore = app.output().match(/Worker \d ended/g)?.length ?? 0;
      const servingBefore = app.output().match(/Worker \d is serving again/g)?.length ?? 0;

      // Kill one worker, then the other as soon as it has served a few requests alone, which
      // is long before the first one's replacement (forked a second later, then compiled)
      // serves: for a moment no worker serves, and the primary closes the port until one does.
      await successes(log, 10, "10 successes before the first kill");
      process.kill(first!, "SIGKILL");
      await successes(log, 10, "10 successes before the second kill");
      process.kill(second!, "SIGKILL");
      await successes(log, 10, "10 successes after the second kill");
      const results = await stopAfterChaos(lanes, log);
      await waitForLine(app.output, servingLines(servingBefore + 2), STARTUP_MS);

      expect(app.output().match(/Worker \d ended \(SIGKILL\)/g)?.length).toBe(endedBefore + 2);
      const output = app.output();
      expect(output.lastIndexOf("ended (SIGKILL)")).toBeLessThan(
        output.indexOf("is serving again", output.indexOf("ended (SIGKILL)")),
      );
      // The kills cut requests under way (status 0): those the clients could retry, they did.
      // A connection the primary was handing to the worker as it died gets no answer at all
      // (-1): Node's primary keeps it open waiting for the dead worker's reply, so only the
      // client's timeout ends it. Either way the client cannot know whether it was served.
      expect(log.answers.some((answer) => answer.status === 0)).toBe(true);
      expect(answersOtherThan(log, [-1, 0, 200, 201, 409, 422])).toEqual([]);
      expectEnvelopes(log.answers);
      await expectNothingLostOrDoubled("kill", results);
    },
    2 * STARTUP_MS + 4 * STEP_MS,
  );
});

/** The answers whose status is not one of `statuses`. */
function answersOtherThan(log: AnswerLog, statuses: readonly number[]): Answer[] {
  return log.answers.filter((answer) => !statuses.includes(answer.status));
}

/** Matches the output once it holds `count` lines of replaced workers serving again. */
function servingLines(count: number): RegExp {
  return new RegExp(`(?:[\\s\\S]*?Worker \\d is serving again\\.\\n){${count}}`);
}
