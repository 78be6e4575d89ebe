import { startAppProcess } from "./app-process.js";
import { benchUserToken, JSON_HEADERS } from "./bench-user.js";
import { median } from "./load.js";
import { processTreeCpuMicros } from "./process-cpu.js";

// Issue 31: while one client sends hostile GraphQL operations back to back, how long does
// /api/health take? Goal: within 100 ms. Each operation text is made unique per request, so
// the document cache never spares the parse and validation.
const SECONDS = 4;
const HEALTH_PAUSE_MS = 5;

/** One hostile operation: its name, and its JSON body with `@N@` where each request's number goes. */
interface Hostile {
  readonly name: string;
  readonly body: string;
  /** Where it goes: `/graphql`, or the JSON API for a comparison. */
  readonly path?: string;
}

const same = (unit: string, count: number) => unit.repeat(count);
const query = (text: string) => JSON.stringify({ query: text });
const hostiles: Hostile[] = [
  {
    name: "3.9 MB operation: 1.3 million fields",
    body: query(`{ notes { ${same("id ", 1_300_000)}} } #@N@`),
  },
  {
    name: "3.9 MB operation: one comment",
    body: query(`{ notes { id } } #@N@ ${same("x", 3_900_000)}`),
  },
  {
    name: "list literal 5,000 deep",
    body: query(`{ notes(limit: ${same("[", 5_000)}1${same("]", 5_000)}) { id } } #@N@`),
  },
  { name: "2,001 tokens", body: query(`{ notes { ${same("id ", 1_996)}} } #@N@`) },
  {
    name: "1,998 tokens: 499 same-named fields",
    body: query(`{ ${same("notes { id } ", 499)}} #@N@`),
  },
  {
    name: "64 KiB block string",
    body: query(`{ notes(limit: """@N@${same("x\n ", 21_750)}""") { id } }`),
  },
  { name: "64 KiB of comments", body: query(`{ notes { id } } #@N@${same("\n#", 32_700)}`) },
  {
    name: "100 same-named listings (200 fields), run",
    body: query(`{ ${same("notes { id } ", 100)}} #@N@`),
  },
  {
    name: "150,000 unknown input fields (1.5 MB)",
    body: `{"query":"mutation ($i: NoteCreateInput!) { createNote(input: $i) { id } } #@N@","variables":{"i":{"title":"x",${Array.from(
      { length: 150_000 },
      (_, field) => `"f${field}":1`,
    ).join(",")}}}}`,
  },
  {
    name: "for comparison, POST /api/notes with 150,000 unknown fields",
    path: "/api/notes",
    body: `{"title":"@N@",${Array.from({ length: 150_000 }, (_, field) => `"f${field}":1`).join(",")}}`,
  },
  {
    name: "for comparison, POST /api/notes with a 3.9 MB body",
    path: "/api/notes",
    body: JSON.stringify({ title: "@N@", body: same("x", 3_900_000) }),
  },
  {
    name: "createNote with a 2,000,000-byte text",
    body: JSON.stringify({
      query:
        'mutation ($body: String) { createNote(input: { title: "long @N@", body: $body }) { id } }',
      variables: { body: same("é", 1_000_000) },
    }),
  },
];

/** The 99th percentile of `values`. */
const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;
const ms = (value: number) => value.toFixed(1);

const app = await startAppProcess();
try {
  const token = await benchUserToken(app.url);
  const headers = { ...JSON_HEADERS, authorization: `Bearer ${token}` };
  /** /api/health's latencies, asked every few ms until `done` says stop. */
  const healthLatencies = async (done: () => boolean) => {
    const latencies: number[] = [];
    while (!done()) {
      const started = performance.now();
      const answer = await fetch(`${app.url}/api/health`);
      if (answer.status !== 200) throw new Error(`/api/health answered ${answer.status}`);
      await answer.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_PAUSE_MS));
    }
    return latencies;
  };

  console.error("idle /api/health");
  const idleUntil = performance.now() + SECONDS * 1000;
  const idleCpuBefore = processTreeCpuMicros(app.pid);
  const idle = await healthLatencies(() => performance.now() > idleUntil);
  // What one /api/health costs the server, taken off the hostile runs' CPU below.
  const healthCpuMicros = (processTreeCpuMicros(app.pid) - idleCpuBefore) / idle.length;

  const rows: string[] = [];
  const cpuPerOperation: number[] = [];
  for (const hostile of hostiles) {
    console.error(hostile.name);
    let sent = 0;
    let answer = "";
    const operationLatencies: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    let sending = true;
    const cpuBefore = processTreeCpuMicros(app.pid);
    const health = healthLatencies(() => !sending);
    while (performance.now() < until) {
      // Each text unique: the document cache has not seen it.
      const body = hostile.body.replace("@N@", String(sent));
      sent += 1;
      const started = performance.now();
      const response = await fetch(`${app.url}${hostile.path ?? "/graphql"}`, {
        method: "POST",
        headers,
        body,
      });
      const result = (await response.json()) as {
        data?: unknown;
        errors?: { message: string; extensions?: { code?: string } }[];
        error?: { message: string };
      };
      operationLatencies.push(performance.now() - started);
      const [error] = result.errors ?? [];
      answer = error
        ? (error.extensions?.code ?? `${error.message.slice(0, 36)}…`)
        : result.error
          ? `${response.status} ${result.error.message.slice(0, 30)}…`
          : `${response.status} data`;
    }
    sending = false;
    const latencies = await health;
    const cpuMicros =
      processTreeCpuMicros(app.pid) - cpuBefore - latencies.length * healthCpuMicros;
    cpuPerOperation.push(cpuMicros / 1000 / sent);
    rows.push(
      `| ${hostile.name} | ${answer} | ${sent} | ${ms(cpuMicros / 1000 / sent)} | ${ms(median(operationLatencies))} | ${ms(median(latencies))} | ${ms(p99(latencies))} | ${ms(Math.max(...latencies))} |`,
    );
  }

  /** The most server CPU one operation of `which` hostiles took. */
  const costliest = (which: (hostile: Hostile) => boolean) =>
    Math.max(...cpuPerOperation.filter((_, index) => which(hostiles[index]!)));
  process.stdout.write(
    [
      "## examples/app: /api/health while hostile GraphQL operations run",
      "",
      `One client sends each operation back to back for ${SECONDS} s (each text unique, so none is`,
      `answered from the document cache) while another asks /api/health every ${HEALTH_PAUSE_MS} ms; the app in`,
      "its own process on a SQLite file (`NODE_ENV=production`, operations compiled by graphql-jit),",
      "its bench user holding no notes. Server CPU is the app's, read from /proc around each run,",
      "less what its /api/health answers cost when idle, per operation; the app has one thread, so",
      "an operation holds up /api/health at most that long on a free core. Latencies are",
      "wall-clock milliseconds seen by the client, transfer included, and count every other",
      "process on the machine.",
      "",
      `Idle /api/health: median ${ms(median(idle))} ms, p99 ${ms(p99(idle))} ms, max ${ms(Math.max(...idle))} ms; ${ms(healthCpuMicros / 1000)} ms of server CPU each.`,
      "",
      "| operation | answer | sent | server CPU ms/operation | operation ms (median) | health ms median | health p99 | health max |",
      "|---|---|---|---|---|---|---|---|",
      ...rows,
      "",
      `The costliest GraphQL operation: ${ms(costliest((hostile) => !hostile.path))} ms of server CPU; the costliest JSON API request beside it: ${ms(costliest((hostile) => Boolean(hostile.path)))} ms (goal: /api/health within 100 ms).`,
      "",
      "Where other jobs keep the machine busy, the wall-clock latencies say more about them than",
      "about the app; the server CPU column is the figure to read. On 2026-11-26 (load average 15",
      "on 2 cores) GraphQL's own work stayed within about 50 ms of CPU per operation at every",
      "limit (the 64 KiB block string, lexed once by the limits' pass and once by the parser, the",
      "costliest). What the large bodies cost above that is reading and parsing megabytes of JSON,",
      "which the JSON API pays alike for the same body: the 4 MiB body cap bounds it, not the",
      "GraphQL limits.",
      "",
      "The same shapes on the code before issue 31 (graphql 16, 2026-11-26): the operation of 1.3",
      "million fields took 6,478 ms of server CPU and held /api/health up for 25 s; the list 5,000",
      "deep was answered `Maximum call stack size exceeded`; 499 same-named fields cost 291 ms to",
      "refuse; and the input of 150,000 unknown fields, run compiled by graphql-jit, had no answer",
      "after 5 minutes (81 s of CPU): the compiled path coerced variables with no error cap, and",
      "graphql-js prints the whole object in each error.",
      "",
    ].join("\n"),
  );
} finally {
  await app.stop();
}
