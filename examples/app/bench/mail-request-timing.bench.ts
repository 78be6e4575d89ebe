import { loadavg } from "node:os";
import { MAIL_ANSWER_FLOOR_MS } from "@tessera/accounts";
import { startAppProcess } from "./app-process.js";
import { JSON_HEADERS } from "./bench-user.js";

// Issue 44: a mail request must not tell whether an address has an account by the time its
// answer takes. Each pair asks once for an address with an account and once for one without
// (alternating which goes first), each from a client address of its own (TRUST_PROXY=1 and
// X-Forwarded-For) and for an address asked for once, so no rate limit is reached.
const PAIRS = 40;
const PASSWORD = "bench password";

/** A mail request: the route, and the request for one address from one client address. */
interface MailRoute {
  readonly name: string;
  readonly status: number;
  readonly request: (url: string, email: string) => RequestInit & { path: string };
}

const ROUTES: readonly MailRoute[] = [
  {
    name: "POST /api/auth/email_code",
    status: 202,
    request: (_url, email) => ({
      path: "/api/auth/email_code",
      headers: JSON_HEADERS,
      body: JSON.stringify({ email }),
    }),
  },
  {
    name: "POST /magic_link",
    status: 303,
    request: (url, email) => ({
      path: "/magic_link",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
      body: String(new URLSearchParams({ email })),
    }),
  },
];

let clients = 0;
/** A client address never used before in this run: the per-client limits stay out of it. */
const nextClient = () => `198.18.${Math.floor(++clients / 250)}.${(clients % 250) + 1}`;

/** Milliseconds from sending `route`'s request for `email` to its whole answer. */
async function timed(url: string, route: MailRoute, email: string): Promise<number> {
  const { path, headers, body } = route.request(url, email);
  const started = performance.now();
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { ...(headers as Record<string, string>), "x-forwarded-for": nextClient() },
    body: body ?? null,
    redirect: "manual",
  });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== route.status) {
    throw new Error(`${route.name} answered ${response.status}, not ${route.status}`);
  }
  return elapsed;
}

/** The median, lowest and highest of `values`, and the spread between the 10th and 90th percentiles. */
function summary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.round(fraction * (sorted.length - 1))]!;
  return { median: at(0.5), p10: at(0.1), p90: at(0.9), low: sorted[0]!, high: sorted.at(-1)! };
}

const ms = (value: number) => value.toFixed(1);

const app = await startAppProcess({ TRUST_PROXY: "1" });
const rows: string[] = [];
const verdicts: string[] = [];
const [loadAtStart] = loadavg();
try {
  for (const route of ROUTES) {
    const known: number[] = [];
    const unknown: number[] = [];
    let knownSlower = 0;
    for (let pair = 0; pair < PAIRS; pair++) {
      const email = `timing-${route.request.length}-${pair}-${Date.now()}@example.com`;
      const signUp = await fetch(`${app.url}/api/auth/signup`, {
        method: "POST",
        headers: { ...JSON_HEADERS, "x-forwarded-for": nextClient() },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}`);
      const stranger = `nobody-${pair}-${Date.now()}@example.com`;
      const [first, second] = pair % 2 === 0 ? [email, stranger] : [stranger, email];
      const firstTime = await timed(app.url, route, first);
      const secondTime = await timed(app.url, route, second);
      const [knownTime, unknownTime] =
        first === email ? [firstTime, secondTime] : [secondTime, firstTime];
      known.push(knownTime);
      unknown.push(unknownTime);
      if (knownTime > unknownTime) knownSlower++;
    }
    for (const [label, values] of [
      ["with an account", known],
      ["without one", unknown],
    ] as const) {
      const { median, p10, p90, low, high } = summary(values);
      rows.push(
        `| ${route.name} | ${label} | ${ms(median)} | ${ms(p10)}–${ms(p90)} | ${ms(low)}–${ms(high)} |`,
      );
    }
    const difference = summary(known).median - summary(unknown).median;
    verdicts.push(
      `${route.name}: medians ${ms(difference)} ms apart; the account's answer slower in ${knownSlower} of ${PAIRS} pairs.`,
    );
  }
} finally {
  await app.stop();
}

process.stdout.write(
  [
    "## examples/app: mail requests, an address with an account and one without (issue 44)",
    "",
    `${PAIRS} pairs per route, alternating which address goes first, each request from its own`,
    "client address and for an address asked for once (no rate limit reached), app in its own",
    "process on a SQLite file (`NODE_ENV=production`, mail through the outbox to the log),",
    "sequential requests, wall time to the whole answer. The routes answer no sooner than",
    `${MAIL_ANSWER_FLOOR_MS} ms (\`MAIL_ANSWER_FLOOR_MS\`) from the lookup on. Before the floor, an address`,
    "with an account took 11–16 ms and one without 5–10 ms on `POST /api/auth/email_code`, the",
    `account slower in 22–26 of 30 pairs. Load average when this run began: ${loadAtStart!.toFixed(1)}.`,
    "",
    "| route | address | median ms | 10th–90th percentile | lowest–highest |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    ...verdicts.map((verdict) => `- ${verdict}`),
    "",
  ].join("\n"),
);
