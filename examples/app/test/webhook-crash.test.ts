import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signBody } from "@tessera/signer";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type AppProcess, listeningUrl, spawnApp } from "./support/app-process.js";

const ORDERS_SECRET = "orders-secret-for-the-crash-test";
// Enough events that a burst gives the probes below many open claims to land on: with 200,
// about one run in four found none on this machine (12 of 12 passed with 600). On a machine
// busy with other tests a burst can still pass between two probes; another burst follows then.
// Three bursts were not always enough in a fresh-clone run of the whole suite (all three passed
// between probes, in 7 s), nor were twelve (all passed in 9 s): a burst takes under a second to
// two, the test has three minutes, and it stops at the first burst that gives a claim.
const EVENTS = 600;
const BURSTS = 40;
const SEND_TRIES = 300;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function orderEvent(index: number): { id: string; body: string } {
  const id = `evt_crash_${index}`;
  const data = { order_id: `order-${index}`, amount: index + 0.5 };
  return { id, body: JSON.stringify({ id, type: "order.paid", data }) };
}

/** Where the senders deliver: the running app's address, and which start of the app it is. */
interface Target {
  url: string;
  start: number;
}

/** What one sender saw: each answer's status (0 for no answer) with the app start it reached. */
interface SenderLog {
  readonly answers: { status: number; start: number }[];
  body?: unknown;
}

/**
 * A sender as webhook providers behave: it delivers until it gets a 2xx, retrying every other
 * answer and every connection failure after a short sleep, a bounded number of times.
 */
async function deliverUntilAccepted(target: Target, body: string, log: SenderLog): Promise<void> {
  for (let attempt = 0; attempt < SEND_TRIES; attempt++) {
    const start = target.start;
    try {
      const response = await fetch(`${target.url}/webhooks/orders`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Signature": signBody(body, ORDERS_SECRET),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      log.answers.push({ status: response.status, start });
      const answer: unknown = await response.json();
      if (response.ok) {
        log.body = answer;
        return;
      }
    } catch {
      log.answers.push({ status: 0, start });
    }
    await sleep(100 + Math.random() * 100);
  }
}

/**
 * Kills the app with SIGKILL at a moment when an event is claimed but its effect has not run.
 * A blind kill lands inside that window only now and then, since claim, effect and mark take
 * microseconds, so the test pauses the app (SIGSTOP), looks at the tables, and kills it there
 * when such a claim is open, else lets it go on. "Effect not visible" matters: a kill inside
 * the last commit's few instructions could leave a claim looking open that the restart finds
 * marked; an effect not yet visible means its mark was never written.
 */
async function killWithOpenClaim(
  app: AppProcess,
  databasePath: string,
  burstDone: () => boolean,
): Promise<boolean> {
  const reader = new Database(databasePath, { readonly: true, timeout: 50 });
  const openClaims = reader.prepare(
    `SELECT count(*) AS open FROM webhook_events WHERE status = 'processing'
     AND NOT EXISTS (SELECT 1 FROM paid_orders WHERE paid_orders.event_id = webhook_events.event_id)`,
  );
  try {
    while (!burstDone()) {
      app.child.kill("SIGSTOP");
      let open = 0;
      try {
        open = (openClaims.get() as { open: number }).open;
      } catch {
        // A lock held by the paused app: look again at the next pause.
      }
      if (open > 0) {
        app.child.kill("SIGKILL");
        await app.exited;
        return true;
      }
      app.child.kill("SIGCONT");
      await sleep(1 + Math.random() * 3);
    }
  } finally {
    reader.close();
  }
  return false;
}

/** Reads the database as the crash left it (a writable connection recovers its journal). */
function processingEvents(databasePath: string): string[] {
  const database = new Database(databasePath);
  try {
    const rows = database
      .prepare("SELECT event_id FROM webhook_events WHERE status = 'processing'")
      .all() as { event_id: string }[];
    return rows.map((row) => row.event_id);
  } finally {
    database.close();
  }
}

describe("POST /webhooks/orders across a crash", () => {
  it("loses no effect when the app is killed with SIGKILL mid-burst and restarted: every event ends processed, its order recorded once", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tessera-crash-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const databasePath = join(folder, "app.db");
    const environment = {
      PORT: "0",
      DATABASE_PATH: databasePath,
      SECRET_KEY_BASE: "crash-test-secret-".repeat(3),
      ORDERS_WEBHOOK_SECRET: ORDERS_SECRET,
    };
    const first = spawnApp(folder, environment);
    cleanups.push(() => first.stop());
    const target: Target = { url: await listeningUrl(first), start: 1 };

    const events: { id: string; body: string }[] = [];
    const logs: SenderLog[] = [];
    const sending: Promise<void>[] = [];
    let crashed = false;
    for (let burst = 0; burst < BURSTS && !crashed; burst++) {
      const batch = Array.from({ length: EVENTS }, (_, index) => orderEvent(events.length + index));
      const batchLogs = batch.map((): SenderLog => ({ answers: [] }));
      let done = false;
      const delivered = Promise.all(
        batch.map((event, index) => deliverUntilAccepted(target, event.body, batchLogs[index]!)),
      ).finally(() => {
        done = true;
      });
      events.push(...batch);
      logs.push(...batchLogs);
      sending.push(delivered.then(() => undefined));
      crashed = await killWithOpenClaim(first, databasePath, () => done);
    }
    expect(crashed, `no open claim to crash on in ${BURSTS} bursts`).toBe(true);
    const senders = Promise.all(sending);
    const stranded = processingEvents(databasePath);
    expect(stranded.length).toBeGreaterThan(0);

    const second = spawnApp(folder, environment);
    cleanups.push(async () => {
      second.child.kill("SIGTERM");
      await second.exited;
      await second.stop();
    });
    // The senders keep retrying the dead address until they are pointed at the new one.
    target.url = await listeningUrl(second);
    target.start = 2;

    // The restarted app meets the stranded claims while they are live: 409, so the senders
    // keep retrying (a `duplicate` here would end their retries and lose the effect).
    const strandedLogs = stranded.map((id) => logs[events.findIndex((event) => event.id === id)]!);
    await expect
      .poll(
        () =>
          strandedLogs.every((log) =>
            log.answers.some((answer) => answer.start === 2 && answer.status === 409),
          ),
        { timeout: 20_000, interval: 50 },
      )
      .toBe(true);
    expect(strandedLogs.every((log) => log.body === undefined)).toBe(true);
    // Then the five minutes pass. Waiting them out, or restarting with a small threshold,
    // would tie the test to how fast the app restarts on a loaded machine (a restart slower
    // than the threshold finds the claims already stale, and nothing above is shown); moving
    // the claims' times back plays the wait deterministically. Taking over on the real clock
    // is shown by the SQLite store's own tests.
    const writer = new Database(databasePath);
    writer
      .prepare(
        "UPDATE webhook_events SET updated_at = datetime(updated_at, '-301 seconds') WHERE status = 'processing'",
      )
      .run();
    writer.close();
    await senders;

    // Every sender got a 2xx in the end.
    expect(
      logs.filter((log) => !["processed", "duplicate"].includes(String(statusOf(log.body)))),
    ).toEqual([]);
    const database = new Database(databasePath, { readonly: true });
    cleanups.push(() => database.close());
    expect(
      database
        .prepare("SELECT status, count(*) AS events FROM webhook_events GROUP BY status")
        .all(),
    ).toEqual([{ status: "processed", events: events.length }]);
    // One order per event, each the event's own.
    expect(
      database
        .prepare(
          `SELECT count(*) AS orders, count(DISTINCT paid_orders.event_id) AS events FROM paid_orders
           JOIN webhook_events ON webhook_events.event_id = paid_orders.event_id
           WHERE paid_orders.order_id = 'order-' || substr(paid_orders.event_id, 11)`,
        )
        .get(),
    ).toEqual({ orders: events.length, events: events.length });
    expect(database.prepare("SELECT count(*) AS orders FROM paid_orders").get()).toEqual({
      orders: events.length,
    });
    // The stranded claims were taken over by a later delivery.
    const attempts = database
      .prepare(
        `SELECT attempts FROM webhook_events WHERE event_id IN (${stranded.map(() => "?").join(", ")})`,
      )
      .all(...stranded) as { attempts: number }[];
    expect(attempts.map((row) => row.attempts >= 2)).toEqual(stranded.map(() => true));
  }, 180_000);
});

function statusOf(body: unknown): unknown {
  return typeof body === "object" && body !== null ? (body as { status?: unknown }).status : body;
}
