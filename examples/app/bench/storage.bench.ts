import { openPostgres } from "@tessera/postgres/pg";
import { startPostgresCluster } from "../../../test/support/postgres-cluster.js";
import { type AppProcess, startAppProcess } from "./app-process.js";
import { benchUserToken, JSON_HEADERS } from "./bench-user.js";
import { type LoadTarget, measureOnce, median } from "./load.js";
import { orderDeliveryTarget } from "./order-delivery.js";
import { processTreeCpuMicros } from "./process-cpu.js";

// Issue "Storage that scales out": webhook deliveries and record creates on PostgreSQL with 1,
// 2 and 4 app processes, against SQLite with one; server CPU per request for each, the app's
// processes and PostgreSQL's apart.
const ROUNDS = 5;
const SECONDS = 3;
const SECRET = "bench-orders-secret";

const server = await startPostgresCluster();
const admin = openPostgres(server.url, { max: 1 });

interface Setup {
  readonly name: string;
  readonly environment: Record<string, string>;
}
const setups: Setup[] = [{ name: "SQLite, 1 process", environment: {} }];
for (const processes of [1, 2, 4]) {
  const database = `bench_${processes}`;
  await admin.execScript(`CREATE DATABASE ${database}`);
  setups.push({
    name: `PostgreSQL, ${processes} process${processes > 1 ? "es" : ""}`,
    environment: {
      DATABASE_URL: server.url.replace(/\/postgres$/, `/${database}`),
      WEB_CONCURRENCY: String(processes),
    },
  });
}

const delivery = orderDeliveryTarget("webhook delivery", SECRET);
let sequence = 0;
const create = (token: string): LoadTarget => ({
  name: "record create",
  path: "/api/posts",
  method: "POST",
  headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
  eachRequest: () => {
    sequence += 1;
    const body = JSON.stringify({ title: `Post ${sequence}`, status: "draft", views: sequence });
    return { body, headers: {} };
  },
});

interface Sample {
  readonly rate: number;
  readonly appMicros: number;
  readonly databaseMicros: number;
}

const apps: AppProcess[] = [];
try {
  const running = [];
  for (const setup of setups) {
    console.error(`starting ${setup.name}`);
    const app = await startAppProcess({ ...setup.environment, ORDERS_WEBHOOK_SECRET: SECRET });
    apps.push(app);
    running.push({ setup, app, targets: [delivery, create(await benchUserToken(app.url))] });
  }
  const samples = new Map<string, Sample[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const { setup, app, targets } of running) {
      for (const target of targets) {
        console.error(`  round ${round + 1}/${ROUNDS}: ${setup.name}, ${target.name}`);
        const app0 = processTreeCpuMicros(app.pid);
        const database0 = processTreeCpuMicros(server.pid);
        const result = await measureOnce(app.url, target, SECONDS);
        if (result.non2xx > 0) throw new Error(`${setup.name} ${target.name}: non-2xx answers`);
        const key = `${target.name}|${setup.name}`;
        samples.set(key, [
          ...(samples.get(key) ?? []),
          {
            rate: result.requestsPerSecond,
            appMicros: (processTreeCpuMicros(app.pid) - app0) / result.requests,
            databaseMicros: (processTreeCpuMicros(server.pid) - database0) / result.requests,
          },
        ]);
      }
    }
  }

  const range = (values: number[], digits = 0) =>
    `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  const lines = [
    "## examples/app: SQLite and PostgreSQL, one process and several",
    "",
    `autocannon, 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per route and setup,`,
    "every app in its own processes (`WEB_CONCURRENCY`), a throw-away PostgreSQL 15 server on the",
    "same machine (fsync off, as in the tests). A delivery is a new signed `order.paid` event",
    "(claim, effect, mark: three writes); a create is `POST /api/posts` with a JWT. CPU is read",
    "from /proc around each run: µs per request of the app's processes and of PostgreSQL's.",
    "Medians, with the range of the rounds.",
    "",
    "| route | setup | requests/s | vs SQLite, 1 process | app CPU µs/request | PostgreSQL CPU µs/request |",
    "|---|---|---|---|---|---|",
  ];
  for (const target of ["webhook delivery", "record create"]) {
    const baseline = median(samples.get(`${target}|${setups[0]!.name}`)!.map((s) => s.rate));
    for (const setup of setups) {
      const runs = samples.get(`${target}|${setup.name}`)!;
      const rates = runs.map((s) => s.rate);
      lines.push(
        `| ${target} | ${setup.name} | ${range(rates)} | ${(median(rates) / baseline).toFixed(2)}x | ${range(runs.map((s) => s.appMicros))} | ${setup.environment.DATABASE_URL ? range(runs.map((s) => s.databaseMicros)) : "–"} |`,
      );
    }
  }
  lines.push(
    "",
    "On this two-core machine the app and PostgreSQL share the cores: PostgreSQL's CPU per request",
    "adds to the app's, each statement is a round trip and a commit, and more processes than cores",
    "only add contention. PostgreSQL is for what SQLite cannot do (several machines, a database on",
    "cores of its own), which one machine cannot measure.",
  );
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  for (const app of apps) await app.stop();
  await admin.close();
  server.stop();
}
