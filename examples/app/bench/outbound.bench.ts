import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { goalVerdict } from "../../../bench/goal-verdict.js";
import { startAppProcess } from "./app-process.js";
import { benchUserToken, JSON_HEADERS } from "./bench-user.js";
import {
  type LoadResult,
  type LoadTarget,
  loadSection,
  measureOnce,
  type Spread,
  spreadOf,
  spreadText,
} from "./load.js";
import { processTreeCpuMicros } from "./process-cpu.js";
import { startBenchReceiver } from "./webhook-receiver.js";

// Issue 30's bench: deliveries per second of one app process to a local receiver, and the CPU
// a subscribed webhook endpoint adds to a note's create (goal: at most +20%).
const ROUNDS = 3;
const SECONDS = 3;
/** Notes created while the sender is held, then delivered in one burst. */
const BURST = 2000;

const folder = mkdtempSync(join(tmpdir(), "tessera-outbound-bench-"));
const databasePath = join(folder, "app.db");
const receiver = await startBenchReceiver();
// Development mode: in production the SSRF guard takes https only, and the receiver is plain
// http on 127.0.0.1 (allowed by name). Every figure below is measured in this one process.
const app = await startAppProcess({
  NODE_ENV: "development",
  DATABASE_PATH: databasePath,
  OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
});
const database = new Database(databasePath, { readonly: true });
try {
  const plainToken = await benchUserToken(app.url, "plain@example.com");
  const subscribedToken = await benchUserToken(app.url, "subscribed@example.com");
  const endpoint = await fetch(`${app.url}/api/webhook_endpoints`, {
    method: "POST",
    headers: { ...JSON_HEADERS, authorization: `Bearer ${subscribedToken}` },
    body: JSON.stringify({ url: receiver.url }),
  });
  if (endpoint.status !== 201) throw new Error(`the endpoint answered ${endpoint.status}`);

  let sequence = 0;
  const noteBody = () => {
    sequence += 1;
    return JSON.stringify({
      title: `Bench note ${sequence}`,
      body: "A note of a few words, as a person writes one, with a tag or two.",
      tags: ["bench", `n${sequence % 10}`],
    });
  };
  const createNote = (name: string, token: string): LoadTarget => ({
    name,
    path: "/api/notes",
    method: "POST",
    headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
    eachRequest: () => ({ body: noteBody(), headers: {} }),
  });

  const undelivered = database
    .prepare("SELECT count(*) FROM outbox_items WHERE queue = 'webhook' AND status <> 'done'")
    .pluck();
  const messages = database.prepare("SELECT count(*) FROM webhook_messages").pluck();
  /** Resolves once every message stored so far has reached the receiver. */
  const drained = async () => {
    const deadline = Date.now() + 180_000;
    while (undelivered.get() !== 0 || receiver.received < (messages.get() as number)) {
      if (Date.now() > deadline) throw new Error("the deliveries did not finish in 3 minutes");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  const plain = createNote("POST /api/notes, no endpoint", plainToken);
  const held = createNote("POST /api/notes, one endpoint, sender held", subscribedToken);
  const delivered = createNote(
    "POST /api/notes, one endpoint, deliveries counted",
    subscribedToken,
  );
  const creates = [plain, held, delivered];
  const samples = creates.map(() => ({ rates: [] as number[], cpu: [] as number[], non2xx: 0 }));
  const burst = { perSecond: [] as number[], cpu: [] as number[] };

  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, target] of creates.entries()) {
      console.error(`  round ${round + 1}/${ROUNDS}: ${target.name}`);
      await drained();
      if (target === held) receiver.hold();
      const before = processTreeCpuMicros(app.pid);
      const sample = await measureOnce(app.url, target, SECONDS);
      // The deliveries the round caused, to their end, count in its CPU.
      if (target === delivered) await drained();
      const cpu = processTreeCpuMicros(app.pid) - before;
      if (target === held) receiver.release();
      samples[index]!.rates.push(sample.requestsPerSecond);
      samples[index]!.cpu.push(cpu / sample.requests);
      samples[index]!.non2xx += sample.non2xx;
    }
    console.error(`  round ${round + 1}/${ROUNDS}: a burst of ${BURST} deliveries`);
    await drained();
    receiver.hold();
    const body = { ...JSON_HEADERS, authorization: `Bearer ${subscribedToken}` };
    let left = BURST;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (; left > 0; left--) {
          const answer = await fetch(`${app.url}/api/notes`, {
            method: "POST",
            headers: body,
            body: noteBody(),
          });
          if (answer.status !== 201) throw new Error(`a create answered ${answer.status}`);
        }
      }),
    );
    const before = processTreeCpuMicros(app.pid);
    const start = performance.now();
    receiver.release();
    await drained();
    const seconds = (performance.now() - start) / 1000;
    burst.perSecond.push(BURST / seconds);
    burst.cpu.push((processTreeCpuMicros(app.pid) - before) / BURST);
  }

  const results: LoadResult[] = creates.map((target, index) => ({
    name: target.name,
    requestsPerSecond: spreadOf(samples[index]!.rates),
    cpuMicrosPerRequest: spreadOf(samples[index]!.cpu),
    cpuMicrosPerRound: samples[index]!.cpu,
    non2xx: samples[index]!.non2xx,
  }));
  const cpuOf = (result: LoadResult) => result.cpuMicrosPerRequest.median;
  const plus = (result: LoadResult) =>
    `${((cpuOf(result) / cpuOf(results[0]!) - 1) * 100).toFixed(0)}%`;
  const spread = (values: Spread) => spreadText(values);
  const goal = Math.round(cpuOf(results[0]!) * 1.2);
  process.stdout.write(
    loadSection(
      "examples/app: outbound webhooks",
      [
        "autocannon, 10 connections, 3 interleaved rounds of 3 s per route, app in its own process",
        "on a SQLite file (WAL), in development mode (production takes https endpoints only), each",
        "delivery to a bare `node:http` receiver on 127.0.0.1 in the bench's process answering",
        "204. A note's create (bearer JWT) by a user with no endpoint writes the note alone; by a",
        "user with one endpoint it also reads the subscribed endpoints and writes the message and",
        "its outbox item in the same transaction. With the sender held (the receiver keeps its",
        "first requests unanswered, so events wait in the outbox) that write path is measured",
        "alone; with deliveries counted, the app's CPU is read until every event of the round has",
        "reached the receiver (claim, signed request, attempt row, done mark), after the round if",
        `need be. Then, in each round, ${BURST.toLocaleString("en-US")} events are stored with the sender held and`,
        "released at once: deliveries per second and the app's CPU per delivery, to the last one.",
      ],
      results,
      [
        `Deliveries per second of one process: ${spread(spreadOf(burst.perSecond))}; app CPU per delivery: ${spread(spreadOf(burst.cpu))} µs.`,
        `A subscribed endpoint adds ${plus(results[1]!)} to a create's write path: ${goalVerdict(cpuOf(results[1]!), goal)}, the goal being +20%.`,
        `Counting the delivery each create causes, it adds ${plus(results[2]!)}: ${goalVerdict(cpuOf(results[2]!), goal)}; a delivery is an outgoing request and three writes, which the create does not wait for.`,
        "A CPU profile of the app creating notes for the subscribed user with the sender held",
        "(2026-11-27) puts `send` at about 115 µs a create (the message's insert 42, the outbox",
        "item's 29, the subscribed endpoints' query 28, the rest JSON and the message id), and the",
        "commit's share grows most: the event adds two rows and five index entries (the message,",
        "its primary key, owner and time indexes; the item, its key and due indexes) to the note's",
        "four pages, each a page written to the WAL at commit. The same statements in a loop on",
        "bare better-sqlite3 with the app's schema take 51–61 µs a create without the event and",
        "120–155 µs with it; without the time index (which the retention deletes through) the same.",
        "So the cost is the event's durable rows in the note's transaction, which the issue asks",
        "for; fewer B-trees per event (the message `WITHOUT ROWID`, the owner index dropped) is a",
        "schema change left for later. The query of subscribed endpoints is not cached: a cache",
        "would miss an endpoint another process just created.",
        "A profile of a burst of 3,000 deliveries (2026-11-27, on the loaded machine) shares a",
        "delivery's CPU between the guarded request (about a third: a new connection each time,",
        "the lookup and its address check), the outbox's claim and done mark (a third: each a",
        "write with its commit), the attempt row (a fifth, its commit mostly), and the signature",
        "with the secret opened from its sealed form, and the endpoint's and message's reads.",
      ],
    ),
  );
} finally {
  database.close();
  await app.stop();
  await receiver.close();
  rmSync(folder, { recursive: true, force: true });
}
