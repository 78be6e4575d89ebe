import { readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { replaceMarkedSection } from "../../../scripts/marked-section.js";
import { startPostgresCluster } from "../../../test/support/postgres-cluster.js";
import { startAppProcess } from "./app-process.js";
import { residentBytes } from "./resident-memory.js";
import {
  clock,
  curveTable,
  FLAT_SLOPE_MIB_PER_MINUTE,
  type MemorySample,
  soakVerdict,
} from "./soak-curve.js";
import { startSoakLoad } from "./soak-load.js";
import { HEAP_REPORTER_ARGUMENTS, readV8Memory } from "./v8-memory.js";

/**
 * `npm run soak -- [--minutes 10] [--postgres] [--write]`: the example app under a steady mix
 * of API, page and webhook requests from this process for `--minutes`, its resident memory
 * read every few seconds. Prints the curve and whether it stayed flat as a Markdown section;
 * `--write` also puts it into docs/benchmarks.md (a section per database engine, which
 * `npm run bench` keeps). A benchmark, not a test: it takes minutes and judges a trend.
 */
const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    postgres: { type: "boolean", default: false },
    write: { type: "boolean", default: false },
  },
});
const minutes = Number(values.minutes);
if (!(minutes > 0)) throw new Error(`--minutes must be a positive number, not ${values.minutes}`);

const CLIENTS = 8;
const SAMPLE_SECONDS = 5;
const BILLING_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const MIB = 2 ** 20;
const engine = values.postgres ? "PostgreSQL" : "SQLite";

const postgres = values.postgres ? await startPostgresCluster() : undefined;
const app = await startAppProcess(
  {
    TRUST_PROXY: "1",
    BILLING_WEBHOOK_SECRET: BILLING_SECRET,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  },
  { nodeArguments: HEAP_REPORTER_ARGUMENTS },
);
const samples: MemorySample[] = [];
let load: ReturnType<typeof startSoakLoad> | undefined;
try {
  load = startSoakLoad(app.url, { clients: CLIENTS, billingSecret: BILLING_SECRET });
  const started = performance.now();
  const sample = async () => {
    const heap = await readV8Memory(app.child);
    const reading = {
      seconds: (performance.now() - started) / 1000,
      residentBytes: residentBytes(app.pid),
      heapResidentBytes: heap.residentBytes,
      liveHeapBytes: heap.liveAfterFullGcBytes,
      afterFullGc: heap.fullCollections > 0,
      requests: load!.counts.requests,
    };
    samples.push(reading);
    console.error(
      `${clock(reading.seconds)}  RSS ${(reading.residentBytes / MIB).toFixed(1)} MiB  heap ${(heap.residentBytes / MIB).toFixed(1)} MiB  ${reading.requests} requests`,
    );
  };
  await sample();
  for (let at = SAMPLE_SECONDS; at <= minutes * 60; at += SAMPLE_SECONDS) {
    // Waits for the reading's due time, not a fixed pause: the readings do not drift.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, started + at * 1000 - performance.now())),
    );
    await sample();
  }
} finally {
  await load?.stop();
  await app.stop();
  postgres?.stop();
}

const verdict = soakVerdict(samples);
const last = samples.at(-1)!;
const unexpected = [...(load?.counts.unexpected ?? [])].map(
  ([key, { count, firstBody }]) =>
    `- ${key}: ${count} (first: \`${firstBody.replaceAll("`", "'")}\`)`,
);
/** The live heap and the rest of RSS right after the first and last full collection. */
function afterFullGcText(verdict: ReturnType<typeof soakVerdict>): string {
  if (!verdict.afterFullGcs) {
    return "V8 made fewer than two full collections after the warm-up: nothing to compare.";
  }
  const [first, last] = verdict.afterFullGcs;
  return `Right after V8's first full collection past the warm-up (${clock(first.seconds)}) and its last (${clock(last.seconds)}), the live heap was ${first.liveHeapMiB.toFixed(1)} and ${last.liveHeapMiB.toFixed(1)} MiB, the rest of RSS ${first.restMiB.toFixed(1)} and ${last.restMiB.toFixed(1)} MiB.`;
}

const section = [
  `## Soak: examples/app on ${engine}`,
  "",
  `\`npm run soak -- --minutes ${minutes}${values.postgres ? " --postgres" : ""}\`, ${new Date().toISOString().slice(0, 10)}, on ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
  `The app runs in one process (\`NODE_ENV=production\`, tsx's loader as \`npm start\` gives it) on ${values.postgres ? "a throw-away PostgreSQL server" : "a SQLite file"};`,
  `${CLIENTS} clients in a second process on 127.0.0.1 each repeat a visit: JSON sign-up, token, sign-in`,
  "through the login form, then ten rounds of `GET /api/auth/me`, a note created, read, updated,",
  "listed and deleted, the posts list, a signed webhook delivery, and the home, notes, note and",
  "account pages with the session cookie; then sign-out. Every",
  `${SAMPLE_SECONDS} s the soak reads the app's resident memory (\`VmRSS\`, /proc) and asks a module it preloaded`,
  "into the app for the JavaScript heap's share of it (the rest is native code's: Node, SQLite,",
  "OpenSSL, buffers) and for the live heap after V8's latest full collection (none is forced).",
  "Under a steady load V8 enlarges its young generation in steps up to a fixed maximum, and the",
  "rarer its full collections, the more native memory owned by garbage (buffers, statements)",
  "waits for one: both lift RSS for a while without anything leaking. A leak shows as a live",
  "heap, or a rest of RSS right after full collections, that keeps growing from one to the next.",
  "",
  curveTable(samples),
  "",
  `**${verdict.flat ? "Flat" : "Growing"}**: over the second half resident memory moved ${verdict.slopeMiBPerMinute.toFixed(2)} MiB per minute`,
  `(flat is under ${FLAT_SLOPE_MIB_PER_MINUTE}), the rest of RSS outside the JavaScript heap ${verdict.outsideHeapSlopeMiBPerMinute.toFixed(2)} MiB per minute; after the warm-up`,
  `(${clock(verdict.warmUpSeconds)}) RSS stayed between ${verdict.lowestMiB.toFixed(1)} and ${verdict.highestMiB.toFixed(1)} MiB (${(verdict.highestMiB - verdict.lowestMiB).toFixed(1)} MiB apart).`,
  afterFullGcText(verdict),
  `${last.requests.toLocaleString("en-US")} requests answered as expected (${(last.requests / last.seconds).toFixed(0)} per second); ${unexpected.length === 0 ? "no other answers." : "other answers:"}`,
  ...unexpected,
  "",
].join("\n");
process.stdout.write(section);
if (values.write) {
  const path = "docs/benchmarks.md";
  const name = `soak-${engine.toLowerCase()}`;
  writeFileSync(path, replaceMarkedSection(readFileSync(path, "utf8"), name, section));
}
