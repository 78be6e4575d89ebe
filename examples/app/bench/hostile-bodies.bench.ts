import { request as httpRequest } from "node:http";
import { writeUntilAnswered } from "../test/support/write-until-answered.js";
import { startAppProcess } from "./app-process.js";
import { benchUserToken } from "./bench-user.js";
import { median } from "./load.js";
import { processTreeCpuMicros } from "./process-cpu.js";

// Issue 44: while one client sends a hostile body (a multipart form of 60 MB or of hundreds of
// thousands of parts, a 3.9 MB GraphQL body) back to back, how long does /api/health take?
// Goal: p99 within 100 ms. Each body is sent for at most SECONDS and at most MAXIMUM_SENDS times,
// so the bench stops by itself whatever the app does.
const SECONDS = 4;
const MAXIMUM_SENDS = 40;
const HEALTH_PAUSE_MS = 5;
const CHUNK_BYTES = 1024 * 1024;
const BOUNDARY = "bench-boundary-7MA4YWxkTrZu0gW";

/** One hostile body: its name, where it goes, its type and its bytes. */
interface Hostile {
  readonly name: string;
  readonly path: string;
  readonly contentType: string;
  readonly body: Uint8Array;
  /** Sent as a signed-in browser's form (cookie session), else with the bench user's token. */
  readonly form: boolean;
  /** Fewer sends than MAXIMUM_SENDS: a form that is taken stores its 60 MB each time. */
  readonly maximumSends?: number;
}

const encoder = new TextEncoder();

/** A multipart body of `parts`, each a header block and its content. */
function multipart(parts: Iterable<{ readonly head: string; readonly content: Uint8Array }>) {
  const pieces: Uint8Array[] = [];
  for (const { head, content } of parts) {
    pieces.push(
      encoder.encode(`--${BOUNDARY}\r\n${head}\r\n\r\n`),
      content,
      encoder.encode("\r\n"),
    );
  }
  pieces.push(encoder.encode(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

function* formFields() {
  yield { head: 'Content-Disposition: form-data; name="title"', content: encoder.encode("Album") };
  yield { head: 'Content-Disposition: form-data; name="status"', content: encoder.encode("draft") };
}

/** `count` photos of `bytes` each, random bytes as compressed images hold. */
function* photos(count: number, bytes: number) {
  const content = new Uint8Array(bytes);
  for (let at = 0; at < bytes; at += 65_536) {
    crypto.getRandomValues(content.subarray(at, Math.min(bytes, at + 65_536)));
  }
  for (let index = 0; index < count; index += 1) {
    yield {
      head: `Content-Disposition: form-data; name="photos"; filename="photo-${index}.jpg"\r\nContent-Type: image/jpeg`,
      content,
    };
  }
}

function* emptyParts(count: number, name: (index: number) => string) {
  const empty = new Uint8Array(0);
  for (let index = 0; index < count; index += 1) {
    yield { head: `Content-Disposition: form-data; name="${name(index)}"`, content: empty };
  }
}

const multipartType = `multipart/form-data; boundary=${BOUNDARY}`;
const hostiles: Hostile[] = [
  {
    name: "60 MB form of 500 photos",
    path: "/posts",
    contentType: multipartType,
    body: multipart([...formFields(), ...photos(500, 120 * 1000)]),
    form: true,
  },
  {
    name: "for comparison, 60 MB form of 100 photos (taken)",
    path: "/posts",
    contentType: multipartType,
    body: multipart([...formFields(), ...photos(100, 600 * 1000)]),
    form: true,
    maximumSends: 3,
  },
  {
    name: "800,000 tiny parts (52 MB)",
    path: "/posts",
    contentType: multipartType,
    body: multipart(emptyParts(800_000, (index) => `f${index}`)),
    form: true,
  },
  {
    name: "120,000 empty parts (7 MB)",
    path: "/posts",
    contentType: multipartType,
    body: multipart(emptyParts(120_000, () => "x")),
    form: true,
  },
  {
    name: "3.9 MB GraphQL body",
    path: "/graphql",
    contentType: "application/json",
    body: encoder.encode(JSON.stringify({ query: `{ notes { id } } #${"x".repeat(3_900_000)}` })),
    form: false,
  },
];

/** The 99th percentile of `values`. */
const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;
const ms = (value: number) => value.toFixed(1);

/**
 * Sends `body` with its `Content-Length` in 1 MiB chunks, and stops sending once the answer
 * comes, as a browser does: the answer's status, or the error that ended the exchange.
 */
function send(url: string, headers: Record<string, string>, body: Uint8Array) {
  return new Promise<string>((resolve) => {
    let answered = false;
    const request = httpRequest(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(body.byteLength) },
    });
    request.on("response", (response) => {
      answered = true;
      response.resume();
      response.on("end", () => resolve(String(response.statusCode)));
      response.on("error", (error) => resolve(error.message));
    });
    request.on("error", (error) => {
      if (!answered) resolve((error as NodeJS.ErrnoException).code ?? error.message);
    });
    writeUntilAnswered(request, body, CHUNK_BYTES, () => answered);
  });
}

/** A signed-in browser's cookie header for the app's forms. */
async function sessionCookie(appUrl: string): Promise<string> {
  const answer = await fetch(`${appUrl}/signup`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "sec-fetch-site": "same-origin",
    },
    body: new URLSearchParams({ email: "forms@example.com", password: "bench password" }),
    redirect: "manual",
  });
  if (answer.status !== 303) throw new Error(`/signup answered ${answer.status}`);
  return answer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

const app = await startAppProcess();
try {
  const token = await benchUserToken(app.url);
  const cookie = await sessionCookie(app.url);
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

  // One small request down each path first: GraphQL and the form pages load on first use.
  const warm = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: "{ notes { id } }" }),
  });
  const warmForm = await send(
    `${app.url}/posts`,
    { "content-type": multipartType, cookie, "sec-fetch-site": "same-origin" },
    multipart(formFields()),
  );
  if (warm.status !== 200 || warmForm !== "303") {
    throw new Error(`warming up: /graphql ${warm.status}, /posts ${warmForm}`);
  }

  console.error("idle /api/health");
  const idleUntil = performance.now() + SECONDS * 1000;
  const idleCpuBefore = processTreeCpuMicros(app.pid);
  const idle = await healthLatencies(() => performance.now() > idleUntil);
  const healthCpuMicros = (processTreeCpuMicros(app.pid) - idleCpuBefore) / idle.length;

  const rows: string[] = [];
  for (const hostile of hostiles) {
    console.error(hostile.name);
    const headers: Record<string, string> = hostile.form
      ? { "content-type": hostile.contentType, cookie, "sec-fetch-site": "same-origin" }
      : { "content-type": hostile.contentType, authorization: `Bearer ${token}` };
    const answers = new Set<string>();
    const bodyLatencies: number[] = [];
    let sending = true;
    const cpuBefore = processTreeCpuMicros(app.pid);
    const health = healthLatencies(() => !sending);
    const until = performance.now() + SECONDS * 1000;
    const maximumSends = hostile.maximumSends ?? MAXIMUM_SENDS;
    while (performance.now() < until && bodyLatencies.length < maximumSends) {
      const started = performance.now();
      answers.add(await send(`${app.url}${hostile.path}`, headers, hostile.body));
      bodyLatencies.push(performance.now() - started);
    }
    sending = false;
    const latencies = await health;
    const sent = bodyLatencies.length;
    const cpuMicros =
      processTreeCpuMicros(app.pid) - cpuBefore - latencies.length * healthCpuMicros;
    rows.push(
      `| ${hostile.name} | ${[...answers].join(", ")} | ${sent} | ${ms(cpuMicros / 1000 / sent)} | ${ms(median(bodyLatencies))} | ${ms(median(latencies))} | ${ms(p99(latencies))} | ${ms(Math.max(...latencies))} |`,
    );
  }

  process.stdout.write(
    [
      "## examples/app: /api/health while hostile bodies are sent (issue 44)",
      "",
      `One client sends each body back to back (with its \`Content-Length\`, 1 MiB at a time, stopping`,
      `once answered as a browser does; for ${SECONDS} s or ${MAXIMUM_SENDS} bodies) while another asks /api/health every`,
      `${HEALTH_PAUSE_MS} ms, after one small request down each path (GraphQL loads on first use); the app in its own`,
      "process on a SQLite file (`NODE_ENV=production`). The forms go to `POST /posts` from a",
      "signed-in browser session; the GraphQL body with the bench user's token. Multipart bodies are",
      "parsed as they stream in, a yield to the event loop every 256 KiB, and refused (413) at the",
      "first part past 1,000, or past 100 under one name; GraphQL bodies are capped at 128 KiB.",
      "Server CPU is the app's, read from /proc around each run, less what its /api/health answers",
      "cost when idle, per body. Latencies are wall-clock milliseconds seen by the client, and count",
      "every other process on the machine (the bench's own client, writing 60 MB bodies, included).",
      "",
      `No hostile load, same run: /api/health median ${ms(median(idle))} ms, p99 ${ms(p99(idle))} ms, max ${ms(Math.max(...idle))} ms.`,
      "",
      "| body | answer | sent | server CPU ms/body | body ms (median) | health ms median | health p99 | health max |",
      "|---|---|---|---|---|---|---|---|",
      ...rows,
      "",
    ].join("\n"),
  );
} finally {
  await app.stop();
}
