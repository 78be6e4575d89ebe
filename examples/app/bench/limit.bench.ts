import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ratioVerdict } from "../../../bench/goal-verdict.js";
import { type AppProcess, startAppProcess, startServerProcess } from "./app-process.js";
import { JSON_HEADERS } from "./bench-user.js";
import { seedLimitBench } from "./limit-seed.js";
import {
  cpuRatio,
  type LoadResult,
  type LoadTarget,
  loadTable,
  loadTargets,
  median,
  type Spread,
  spreadOf,
} from "./load.js";
import { steadinessLine } from "./run-steadiness.js";
import { standardDeliveryTarget } from "./standard-delivery.js";
import { measureStartup, type StartupSample } from "./startup-cost.js";

// Issue 33: every hot path of the example app against the limit — a bare server doing the same
// work by hand (bare-server.ts) — or against the app's own static route, in one run of
// interleaved rounds, each ratio beside the goal.
const ROUNDS = 5;
const SECONDS = 3;
const STARTS = 5;
const SEEDED_NOTES = 60;
const BILLING_SECRET = `whsec_${Buffer.from("limit-bench-billing-secret-32byt").toString("base64")}`;
const NOTE_FIELDS =
  "id userId title body pinned dueOn rating wordCount tags postId createdAt updatedAt";

const bareScript = fileURLToPath(new URL("./bare-server.ts", import.meta.url));
const floorScript = fileURLToPath(new URL("./framework-floor-server.ts", import.meta.url));
const appScript = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "tessera-limit-"));
// One SQLite file for both: the app migrates it, the bare server opens it (same schema, rows).
const environment = {
  DATABASE_PATH: join(folder, "app.db"),
  BILLING_WEBHOOK_SECRET: BILLING_SECRET,
};

const running: AppProcess[] = [];
try {
  const app = await startAppProcess(environment);
  running.push(app);
  console.error("seeding");
  const credentials = await seedLimitBench(app.url, SEEDED_NOTES);
  const bare = await startServerProcess(bareScript, environment);
  running.push(bare);
  const floor = await startServerProcess(floorScript, environment);
  running.push(floor);
  const floorWithMiddleware = await startServerProcess(floorScript, {
    ...environment,
    FLOOR_MIDDLEWARE: "1",
  });
  running.push(floorWithMiddleware);

  console.error("start-ups");
  const starts = { app: [] as StartupSample[], bare: [] as StartupSample[] };
  for (let round = 0; round < STARTS; round++) {
    starts.app.push(await measureStartup(appScript, environment));
    starts.bare.push(await measureStartup(bareScript, environment));
  }

  const jwt = { authorization: `Bearer ${credentials.token}` };
  const apiKey = { authorization: `Bearer ${credentials.apiKey}` };
  let sequence = 0;
  const newNote = (server?: AppProcess): LoadTarget => ({
    name: `POST /api/notes (JWT)${server ? ", bare" : ""}`,
    path: "/api/notes",
    method: "POST",
    headers: { ...JSON_HEADERS, ...jwt },
    eachRequest: () => {
      sequence += 1;
      const body = JSON.stringify({ title: `Bench note ${sequence}`, body: `Line ${sequence}` });
      return { body, headers: {} };
    },
    ...(server ? { server } : {}),
  });
  const targets = {
    appHealth: { name: "GET /api/health", path: "/api/health" },
    bareHealth: { name: "GET /api/health, bare", path: "/api/health", server: bare },
    floorHealth: {
      name: "GET /api/health, Hono on @hono/node-server alone",
      path: "/api/health",
      server: floor,
    },
    floorMiddlewareHealth: {
      name: "GET /api/health, the same with one pass-through middleware",
      path: "/api/health",
      server: floorWithMiddleware,
    },
    appDelivery: standardDeliveryTarget(
      "Standard Webhooks delivery",
      "/webhooks/billing",
      BILLING_SECRET,
    ),
    bareThree: standardDeliveryTarget(
      "delivery, bare: our three statements",
      "/webhooks/billing",
      BILLING_SECRET,
      { server: bare },
    ),
    bareOne: standardDeliveryTarget(
      "delivery, bare: verify + one INSERT",
      "/webhooks/billing/one-write",
      BILLING_SECRET,
      { server: bare },
    ),
    appNote: newNote(),
    bareNote: newNote(bare),
    appMeJwt: { name: "GET /api/auth/me, JWT", path: "/api/auth/me", headers: jwt },
    appMeKey: { name: "GET /api/auth/me, API key", path: "/api/auth/me", headers: apiKey },
    bareMeJwt: {
      name: "GET /api/auth/me, JWT, bare",
      path: "/api/auth/me",
      headers: jwt,
      server: bare,
    },
    bareMeKey: {
      name: "GET /api/auth/me, API key, bare",
      path: "/api/auth/me",
      headers: apiKey,
      server: bare,
    },
    appRead: {
      name: "GET / reading the session",
      path: "/",
      headers: { cookie: credentials.readOnlyCookie },
    },
    appFlash: {
      name: "GET / session + flash + Set-Cookie",
      path: "/",
      headers: { cookie: credentials.flashCookie },
    },
    bareRead: {
      name: "GET / reading the session, bare",
      path: "/",
      headers: { cookie: credentials.readOnlyCookie },
      server: bare,
    },
    bareFlash: {
      name: "GET / session + flash + Set-Cookie, bare",
      path: "/",
      headers: { cookie: credentials.flashCookie },
      server: bare,
    },
    jsonList: { name: "GET /api/notes?limit=50", path: "/api/notes?limit=50", headers: jwt },
    graphqlList: {
      name: "POST /graphql notes(limit: 50)",
      path: "/graphql",
      method: "POST",
      headers: { ...JSON_HEADERS, ...jwt },
      body: JSON.stringify({ query: `{ notes(limit: 50) { ${NOTE_FIELDS} } }` }),
    },
  } satisfies Record<string, LoadTarget>;
  const names = Object.keys(targets) as (keyof typeof targets)[];
  // One unrecorded second of each, so no contender's first round pays for its JIT warm-up.
  console.error("warming up");
  await loadTargets(app, Object.values(targets), { rounds: 1, seconds: 1 });
  const measured = await loadTargets(app, Object.values(targets), {
    rounds: ROUNDS,
    seconds: SECONDS,
  });
  const failed = measured.filter((result) => result.non2xx > 0);
  if (failed.length > 0) throw new Error(`non-2xx answers: ${JSON.stringify(failed)}`);
  const result = Object.fromEntries(names.map((name, index) => [name, measured[index]!])) as Record<
    keyof typeof targets,
    LoadResult
  >;

  const cpu = (row: LoadResult) => row.cpuMicrosPerRequest.median.toFixed(1);
  const perRound = (top: LoadResult, bottom: LoadResult): Spread =>
    spreadOf(top.cpuMicrosPerRound.map((value, round) => value / bottom.cpuMicrosPerRound[round]!));
  const roundRange = (spread: Spread) => `${spread.low.toFixed(2)}–${spread.high.toFixed(2)}x`;
  const graphqlRatio = perRound(result.graphqlList, result.jsonList);
  const startMedian = (samples: StartupSample[]) => median(samples.map((s) => s.millisToFirst200));
  const memoryMedian = (samples: StartupSample[]) =>
    median(samples.map((s) => s.idleResidentBytes)) / 2 ** 20;
  const startRange = (samples: StartupSample[]) =>
    `${Math.min(...samples.map((s) => s.millisToFirst200)).toFixed(0)}–${Math.max(...samples.map((s) => s.millisToFirst200)).toFixed(0)}`;
  const memoryRange = (samples: StartupSample[]) =>
    `${(Math.min(...samples.map((s) => s.idleResidentBytes)) / 2 ** 20).toFixed(0)}–${(Math.max(...samples.map((s) => s.idleResidentBytes)) / 2 ** 20).toFixed(0)}`;

  const summary = [
    "| path | Tessera | limit | ratio (rounds' range) | verdict |",
    "|---|---|---|---|---|",
    `| \`GET /api/health\` | ${cpu(result.appHealth)} µs | ${cpu(result.bareHealth)} µs (bare) | ${roundRange(perRound(result.appHealth, result.bareHealth))} | ${ratioVerdict(cpuRatio(result.appHealth, result.bareHealth), 1.5)} |`,
    `| same, against the framework's floor | ${cpu(result.appHealth)} µs | ${cpu(result.floorHealth)} µs (Hono on @hono/node-server alone; ${cpuRatio(result.floorHealth, result.bareHealth).toFixed(2)}x bare) | ${roundRange(perRound(result.appHealth, result.floorHealth))} | ${cpuRatio(result.appHealth, result.floorHealth).toFixed(2)}x (no goal) |`,
    `| same, against the framework with one middleware | ${cpu(result.appHealth)} µs | ${cpu(result.floorMiddlewareHealth)} µs (the floor with one pass-through middleware; ${cpuRatio(result.floorMiddlewareHealth, result.bareHealth).toFixed(2)}x bare) | ${roundRange(perRound(result.appHealth, result.floorMiddlewareHealth))} | ${cpuRatio(result.appHealth, result.floorMiddlewareHealth).toFixed(2)}x (no goal) |`,
    `| Standard Webhooks delivery (\`/webhooks/billing\`) | ${cpu(result.appDelivery)} µs | ${cpu(result.bareOne)} µs (bare, verify + one INSERT) | ${roundRange(perRound(result.appDelivery, result.bareOne))} | ${ratioVerdict(cpuRatio(result.appDelivery, result.bareOne), 1.6)} |`,
    `| same, bare doing our three statements | ${cpu(result.appDelivery)} µs | ${cpu(result.bareThree)} µs | ${roundRange(perRound(result.appDelivery, result.bareThree))} | ${cpuRatio(result.appDelivery, result.bareThree).toFixed(2)}x (no goal) |`,
    `| \`POST /api/notes\` (JWT) | ${cpu(result.appNote)} µs | ${cpu(result.bareNote)} µs (bare) | ${roundRange(perRound(result.appNote, result.bareNote))} | ${ratioVerdict(cpuRatio(result.appNote, result.bareNote), 1.4)} |`,
    `| \`GET /api/auth/me\`, JWT | ${cpu(result.appMeJwt)} µs | ${cpu(result.appHealth)} µs (the app's static route) | ${roundRange(perRound(result.appMeJwt, result.appHealth))} | ${ratioVerdict(cpuRatio(result.appMeJwt, result.appHealth), 1.25)} |`,
    `| \`GET /api/auth/me\`, API key | ${cpu(result.appMeKey)} µs | ${cpu(result.appHealth)} µs (the app's static route) | ${roundRange(perRound(result.appMeKey, result.appHealth))} | ${ratioVerdict(cpuRatio(result.appMeKey, result.appHealth), 1.35)} |`,
    `| page reading the session + flash + Set-Cookie | ${cpu(result.appFlash)} µs | ${cpu(result.appRead)} µs (the same page reading only) | ${roundRange(perRound(result.appFlash, result.appRead))} | ${ratioVerdict(cpuRatio(result.appFlash, result.appRead), 1.3)} |`,
    `| GraphQL list of 50 / JSON list | ${cpu(result.graphqlList)} µs | ${cpu(result.jsonList)} µs (JSON) | ${roundRange(graphqlRatio)} | ${ratioVerdict(graphqlRatio.high, 1.3)} in the worst round |`,
    `| start to first 200 (ms) | ${startMedian(starts.app).toFixed(0)} (${startRange(starts.app)}) | ${startMedian(starts.bare).toFixed(0)} (${startRange(starts.bare)}) (bare) | — | ${ratioVerdict(startMedian(starts.app) / startMedian(starts.bare), 4)} |`,
    `| resident memory, idle (MiB) | ${memoryMedian(starts.app).toFixed(0)} (${memoryRange(starts.app)}) | ${memoryMedian(starts.bare).toFixed(0)} (${memoryRange(starts.bare)}) (bare) | — | ${ratioVerdict(memoryMedian(starts.app) / memoryMedian(starts.bare), 1.8)} |`,
  ];
  const detail = (title: string, rows: LoadResult[]) => [`#### ${title}`, "", loadTable(rows), ""];
  const lines = [
    "## examples/app: against the limit (issue 33)",
    "",
    `autocannon, 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per route and contender`,
    "after a second of warm-up each, server CPU read from /proc around each round (`NODE_ENV=production`, SQLite file in WAL mode).",
    "The limit is `examples/app/bench/bare-server.ts`: the same work by hand on node:http,",
    "node:crypto and better-sqlite3 (same pragmas, the app's own migrated file, the same",
    "statements, headers and answer bytes; what it skips is listed at its top). The framework's",
    "floor (`framework-floor-server.ts`) is Hono on @hono/node-server answering the static route",
    "alone, with no middleware: what any Hono app on Node pays per request; the same with one",
    "pass-through middleware is the floor of an app that has any (Hono answers a lone handler",
    "synchronously, and any middleware makes the answer asynchronous). Each server is",
    "one process started as `npm start` starts the app (`node --import tsx/esm <file>`); the bare server shares the app's",
    "database file. The session pages are the home page of a user just signed in through the",
    "login form (the app's own `Signed in.` flash: the page takes it and writes the cookie",
    "again), and the same page with the cookie it wrote (reading only). Each ratio is of",
    "medians, with the range of the rounds' own ratios; goals are the issue's. Start-up:",
    `${STARTS} alternating starts each, spawn to the first 200 of \`/api/health\` on a migrated file,`,
    "then resident memory after 2 s idle. PostgreSQL, 2 processes against 1, is measured by the",
    "storage bench (`examples/app: SQLite and PostgreSQL`), not here.",
    "",
    "### Ratios against the goals",
    "",
    steadinessLine([
      result.bareHealth,
      result.floorHealth,
      result.floorMiddlewareHealth,
      result.bareOne,
      result.bareThree,
      result.bareNote,
      result.bareMeJwt,
      result.bareMeKey,
      result.bareRead,
      result.bareFlash,
    ]),
    "",
    ...summary,
    "",
    "### The measurements (the limit first)",
    "",
    ...detail("GET /api/health", [
      result.bareHealth,
      result.floorHealth,
      result.floorMiddlewareHealth,
      result.appHealth,
    ]),
    ...detail("Standard Webhooks delivery", [result.bareOne, result.bareThree, result.appDelivery]),
    ...detail("POST /api/notes", [result.bareNote, result.appNote]),
    ...detail("GET /api/auth/me against the static route, the app", [
      result.appHealth,
      result.appMeJwt,
      result.appMeKey,
    ]),
    ...detail("GET /api/auth/me against the static route, bare", [
      result.bareHealth,
      result.bareMeJwt,
      result.bareMeKey,
    ]),
    ...detail("Session page, reading only and with flash + Set-Cookie", [
      result.bareRead,
      result.bareFlash,
      result.appRead,
      result.appFlash,
    ]),
    ...detail("GraphQL against JSON, 50 notes", [result.jsonList, result.graphqlList]),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  for (const server of running) await server.stop();
  rmSync(folder, { recursive: true, force: true });
}
