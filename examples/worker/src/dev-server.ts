// `npm run dev -w examples/worker`: the Worker on this machine, in miniflare (the simulator
// `wrangler dev` runs it in: workerd with D1, R2 and the rate-limiting binding simulated),
// bundled from src/worker.ts as wrangler bundles it and configured from wrangler.json. It reads
// the Node app's settings from the environment it is started in. wrangler 4 itself needs
// Node 22; this runs on Node 20. Two things make it behave as Cloudflare's production does where
// miniflare alone does not: requests reach miniflare through an edge that sets the client's
// address from the socket (edge-proxy.ts), and WebCrypto refuses PBKDF2 above 100,000
// iterations (production-pbkdf2-limit.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { randomToken } from "@tessera/crypto";
import { build } from "esbuild";
import { Log, LogLevel, Miniflare } from "miniflare";
import { isProviderSetting, SETTING_NAMES } from "../../app/src/config.js";
import { startEdgeProxy } from "./edge-proxy.js";

const folder = resolve(import.meta.dirname, "..");
const root = resolve(folder, "..", "..");

/** The parts of wrangler.json the simulator is configured from. */
interface WranglerConfig {
  readonly main: string;
  readonly compatibility_date: string;
  readonly d1_databases: readonly { binding: string; database_name: string }[];
  readonly r2_buckets: readonly { binding: string; bucket_name: string }[];
  readonly ratelimits: readonly {
    name: string;
    namespace_id: string;
    simple: { limit: number; period: number };
  }[];
  readonly triggers: { readonly crons: readonly string[] };
  readonly send_email?: readonly { name: string }[];
  readonly queues?: {
    readonly producers?: readonly { binding: string; queue: string }[];
    readonly consumers?: readonly { queue: string; max_batch_timeout?: number }[];
  };
}

// `--config <file>` names another configuration, as wrangler's own flag does (a path from this
// folder): one with a Queues binding, say.
const configFlag = process.argv.indexOf("--config");
const configFile =
  configFlag === -1 ? "wrangler.json" : (process.argv[configFlag + 1] ?? "wrangler.json");
const wrangler = JSON.parse(readFileSync(resolve(folder, configFile), "utf8")) as WranglerConfig;
const environment = process.env;

if (environment.DATABASE_URL) {
  console.error("Cannot start: DATABASE_URL is for the Node app; the Worker keeps its data in D1");
  process.exit(1);
}

// The local D1 and R2 live in DATABASE_PATH's folder, kept between starts; without it, in a
// fresh folder per start.
const keepState = environment.DATABASE_PATH !== undefined && environment.DATABASE_PATH !== "";
const stateFolder = keepState
  ? resolve(dirname(environment.DATABASE_PATH!), "worker-state")
  : mkdtempSync(join(tmpdir(), "tessera-worker-"));
mkdirSync(stateFolder, { recursive: true });

// The Worker's variables: the app's settings that are set, and a development secret (kept in
// the state folder, like the Node app's data/secret_key_base) when SECRET_KEY_BASE is not.
const settings: Record<string, string> = {};
for (const [name, value] of Object.entries(environment)) {
  if (value !== undefined && (SETTING_NAMES.includes(name) || isProviderSetting(name))) {
    settings[name] = value;
  }
}
settings.SECRET_KEY_BASE ??= developmentSecret(join(stateFolder, "secret_key_base"));

const script = join(stateFolder, "worker.js");
await build({
  entryPoints: [join(folder, wrangler.main)],
  outfile: script,
  bundle: true,
  format: "esm",
  platform: "browser",
  conditions: ["workerd", "worker", "browser"],
  // Runs before the Worker's own modules: production's PBKDF2 limit, which local workerd lacks.
  inject: [join(folder, "src", "production-pbkdf2-limit.ts")],
  // The repository's packages from their sources, as its tsconfig maps them.
  tsconfig: join(root, "tsconfig.json"),
  // workerd's own modules (`cloudflare:email`), as wrangler leaves them.
  external: ["cloudflare:*"],
  logLevel: "warning",
});

const port = Number(environment.PORT ?? 8787);
const host = environment.HOST ?? "127.0.0.1";
// miniflare listens on loopback only, on a port of its own: clients reach it through the edge.
const worker = new Miniflare({
  modules: true,
  scriptPath: script,
  // Module names are paths relative to this folder: the bundle must be inside it.
  modulesRoot: stateFolder,
  compatibilityDate: wrangler.compatibility_date,
  host: "127.0.0.1",
  port: 0,
  log: new Log(LogLevel.INFO),
  // Requests get a placeholder `request.cf` instead of Cloudflare's, fetched from the internet.
  cf: false,
  bindings: settings,
  d1Databases: Object.fromEntries(
    wrangler.d1_databases.map((database) => [database.binding, database.database_name]),
  ),
  r2Buckets: Object.fromEntries(
    wrangler.r2_buckets.map((bucket) => [bucket.binding, bucket.bucket_name]),
  ),
  ratelimits: Object.fromEntries(
    wrangler.ratelimits.map((limiter) => [
      limiter.name,
      { namespace_id: limiter.namespace_id, simple: limiter.simple },
    ]),
  ),
  // The send_email binding: miniflare's prints each mail it is handed (MAIL_ADAPTER=cloudflare).
  email: { send_email: [...(wrangler.send_email ?? [])] },
  // Queues, when configured: the Worker tells one that mail is waiting, and consumes it.
  queueProducers: Object.fromEntries(
    (wrangler.queues?.producers ?? []).map((producer) => [
      producer.binding,
      { queueName: producer.queue },
    ]),
  ),
  queueConsumers: Object.fromEntries(
    (wrangler.queues?.consumers ?? []).map((consumer) => [
      consumer.queue,
      { maxBatchTimeout: consumer.max_batch_timeout ?? 1 },
    ]),
  ),
  d1Persist: join(stateFolder, "d1"),
  r2Persist: join(stateFolder, "r2"),
});
const edge = await startEdgeProxy({ host, port, upstream: await worker.ready });
console.log(`Tessera worker listening on ${edge.url.origin} (D1 and R2 in ${stateFolder})`);

// The cron trigger, every SWEEP_INTERVAL_SECONDS (default 300, as the cron's five minutes).
const sweepSeconds = Number(settings.SWEEP_INTERVAL_SECONDS ?? 300);
const cron = wrangler.triggers.crons[0] ?? "*/5 * * * *";
const sweeps = setInterval(async () => {
  try {
    // The Worker's scheduled handler, as Cloudflare's cron calls it (miniflare's Fetcher type
    // leaves `scheduled` out).
    const fetcher = (await worker.getWorker()) as unknown as ScheduledFetcher;
    await fetcher.scheduled({ cron });
  } catch (error) {
    console.error(`The scheduled run failed: ${(error as Error).message}`);
  }
}, sweepSeconds * 1000);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // `on`, not `once`: a second signal (tsx relays one, a terminal sends another) must not
  // kill the process halfway through its shutdown.
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(sweeps);
    await edge.close();
    await worker.dispose();
    process.exit(0);
  });
}
// On "exit", which runs however the process ends (miniflare's own signal hook exits at once).
process.on("exit", () => {
  if (!keepState) rmSync(stateFolder, { recursive: true, force: true });
});

interface ScheduledFetcher {
  scheduled(options: { cron: string }): Promise<{ outcome: string }>;
}

function developmentSecret(path: string): string {
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  const secret = randomToken() + randomToken();
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}
