// The CPU budget of @tessera/password's pure-JS fallback: how many PBKDF2-HMAC-SHA256
// iterations @noble/hashes does per millisecond of CPU, in Node and in workerd (miniflare's,
// the runtime Cloudflare runs), next to Node's native PBKDF2. Verifying a stored digest above
// the runtime's native cap (100,000 on Cloudflare Workers) costs that much per sign-in.
import { pbkdf2Sync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pbkdf2Async } from "@noble/hashes/pbkdf2.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { DEFAULT_MAXIMUM_FALLBACK_ITERATIONS } from "@tessera/password";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { median } from "../../app/bench/load.js";
import { descendantNamed, processTreeCpuMicros } from "../../app/bench/process-cpu.js";

const ROUNDS = 5;
/** Iterations per measured derivation: long against /proc's 10 ms resolution. */
const ITERATIONS = 300_000;
/** Requests per workerd round, each one derivation. */
const REQUESTS = 3;
const password = new TextEncoder().encode("bench password");
const salt = new TextEncoder().encode("a-salt-of-22-characters");

/** Iterations per millisecond of this process's CPU, one figure per round. */
async function inNode(derive: () => unknown): Promise<number[]> {
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    await derive();
    const used = process.cpuUsage(before);
    rates.push(ITERATIONS / ((used.user + used.system) / 1000));
  }
  return rates;
}

const nobleInNode = await inNode(() =>
  pbkdf2Async(sha256, password, salt, { c: ITERATIONS, dkLen: 32 }),
);
const nativeInNode = await inNode(() => pbkdf2Sync(password, salt, ITERATIONS, 32, "sha256"));

// The same call in a Worker, bundled as the Worker example is (browser platform, workerd's
// conditions). workerd's CPU time is read from /proc around rounds of requests; a round at 1,000
// iterations is taken off, so the request's own cost is not counted as PBKDF2's.
const folder = mkdtempSync(join(tmpdir(), "tessera-pbkdf2-bench-"));
const script = join(folder, "worker.js");
await build({
  stdin: {
    contents: `import { pbkdf2Async } from "@noble/hashes/pbkdf2.js";
import { sha256 } from "@noble/hashes/sha2.js";
const encoder = new TextEncoder();
export default {
  async fetch(request) {
    const c = Number(new URL(request.url).searchParams.get("c"));
    const key = await pbkdf2Async(sha256, encoder.encode("bench password"), encoder.encode("a-salt-of-22-characters"), { c, dkLen: 32 });
    return new Response(String(key[0]));
  },
};`,
    resolveDir: import.meta.dirname,
  },
  outfile: script,
  bundle: true,
  format: "esm",
  platform: "browser",
  conditions: ["workerd", "worker", "browser"],
  logLevel: "warning",
});
const miniflare = new Miniflare({
  modules: true,
  scriptPath: script,
  modulesRoot: folder,
  compatibilityDate: "2026-07-01",
});
await miniflare.ready;
const workerd = descendantNamed(process.pid, "workerd");
if (workerd === undefined) throw new Error("no workerd process under this one");

async function workerdMicros(iterations: number): Promise<number> {
  const before = processTreeCpuMicros(workerd!);
  for (let request = 0; request < REQUESTS; request++) {
    const response = await miniflare.dispatchFetch(`http://bench.test/?c=${iterations}`);
    if (!response.ok) throw new Error(`the Worker answered ${response.status}`);
    await response.text();
  }
  return (processTreeCpuMicros(workerd!) - before) / REQUESTS;
}

const nobleInWorkerd: number[] = [];
await workerdMicros(1000);
for (let round = 0; round < ROUNDS; round++) {
  const heavy = await workerdMicros(ITERATIONS);
  const light = await workerdMicros(1000);
  nobleInWorkerd.push((ITERATIONS - 1000) / ((heavy - light) / 1000));
}
await miniflare.dispose();
rmSync(folder, { recursive: true, force: true });

const row = (name: string, rates: number[]) => {
  const rate = median(rates);
  return `| ${name} | ${Math.round(rate)} (${Math.round(Math.min(...rates))}–${Math.round(Math.max(...rates))}) | ${Math.round(600_000 / rate)} | ${Math.round(DEFAULT_MAXIMUM_FALLBACK_ITERATIONS / rate)} |`;
};
const lines = [
  "## @tessera/password: the pure-JS fallback's CPU budget",
  "",
  `PBKDF2-HMAC-SHA256 over ${ITERATIONS.toLocaleString("en")} iterations, ${ROUNDS} rounds: iterations per`,
  "millisecond of CPU (median, with the range of the rounds), and the CPU a sign-in spends on a",
  `Django 4.2 digest (600,000) and on one at the fallback's default ceiling`,
  `(${DEFAULT_MAXIMUM_FALLBACK_ITERATIONS.toLocaleString("en")}). Node's from process.cpuUsage; workerd's from /proc around`,
  `rounds of ${REQUESTS} requests, less a round at 1,000 iterations. Other processes' load`,
  `counts: the one-minute load average was ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores at the end of the run.`,
  "",
  "| engine | iterations per CPU ms | ms for 600,000 | ms for the default ceiling |",
  "|---|---|---|---|",
  row("node:crypto pbkdf2Sync (native, for scale)", nativeInNode),
  row("@noble/hashes pbkdf2Async in Node", nobleInNode),
  row("@noble/hashes pbkdf2Async in workerd", nobleInWorkerd),
];
console.log(lines.join("\n"));
