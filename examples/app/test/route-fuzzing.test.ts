// Route fuzzing: fast-check drives every route of the app over real HTTP with generated hostile
// input (oversized values, malformed JSON, deep nesting, wrong types, NUL, lone surrogates,
// direction overrides, combining marks, huge numbers, prototype keys, odd content types,
// repeated headers, odd ids and paths; webhooks with valid signatures over hostile bodies and
// with hostile signatures) and checks, for every answer:
//   1. never a 5xx. The one documented 500, an `order.paid` event on /webhooks/orders whose data
//      its effect refuses, must be exactly that: its envelope, the event stored `failed` with the
//      effect's message, nothing else written. GraphQL answers hold no internal error either.
//   2. an error is the JSON envelope {"error": {"message", "status", ...}} on a JSON route and a
//      whole HTML page on a page (GraphQL may answer a GraphQL error response instead).
//   3. nothing is written on a refusal (a 4xx, or GraphQL errors without data): no row inserted,
//      updated or deleted in any table (rate-limit counters aside: counting refused attempts is
//      their job), no file added to or removed from the uploads folder, no job submitted.
// The routes and their cases are in support/route-catalogue.ts; the first test checks it names
// every route the app mounts.
//
// Seed: fixed in CI (`CI` set), random otherwise, always printed first. To replay a failure, run
// again with the seed it printed and the failing test's name:
//   FUZZ_SEED=<seed> npx vitest run --project example-app route-fuzzing -t "<test name>"
// fast-check's report gives a `path` too: add FUZZ_PATH=<path> to run the shrunk counterexample
// alone. Each test stops after its time budget (the file stays under a minute on two cores), so
// how many cases run depends on the machine: each test prints how many did. FUZZ_SCALE=10 gives
// every test ten times the cases and the time, for a longer hunt.
import { join } from "node:path";
import fc, { type Arbitrary } from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import {
  type AnswerKind,
  answerFault,
  answerJson,
  internalGraphqlErrors,
  ranNoGraphql,
} from "./support/answer-shape.js";
import { appRoutes } from "./support/app-routes.js";
import { type FuzzCase, readable, toRawRequest } from "./support/fuzz-case.js";
import { createFuzzFixtures, type FuzzFixtures } from "./support/fuzz-fixtures.js";
import { ordersEffectFailure, ordersEventId } from "./support/orders-effect.js";
import { type RawResponse, sendRawRequest } from "./support/raw-request.js";
import { type RouteGroup, routeGroups } from "./support/route-catalogue.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";
import { signWebhook, WEBHOOK_SECRETS } from "./support/webhook-signatures.js";
import { filesUnder, WriteJournal } from "./support/write-journal.js";

const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : process.env.CI
    ? 31
    : Math.floor(Math.random() * 2 ** 31);
const REPLAY_PATH = process.env.FUZZ_PATH;
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
console.log(
  `route fuzzing: seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run --project example-app route-fuzzing)`,
);

const ENVIRONMENT = {
  TRUST_PROXY: "1",
  APP_URL: "https://app.example",
  ORDERS_WEBHOOK_SECRET: WEBHOOK_SECRETS.orders,
  GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRETS.github,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRETS.stripe,
  BILLING_WEBHOOK_SECRET: WEBHOOK_SECRETS.billing,
  RENDER_SECRET: WEBHOOK_SECRETS.render,
};

let service: RecordingService;
let server: TestServer;
let fixtures: FuzzFixtures;
let journal: WriteJournal;
let uploads: string;

beforeAll(async () => {
  service = await startRecordingService({ status: 202, body: '{"id":"ext-1"}' });
  server = await startTestServer(
    { ...ENVIRONMENT, RENDER_URL: service.url },
    // No sweep or cleanup round may write while a refused request is being watched.
    { backgroundTasks: false },
  );
  uploads = join(server.databasePath, "..", "uploads");
  fixtures = await createFuzzFixtures(server, service);
  journal = new WriteJournal(server.databasePath);
}, 30_000);
afterAll(async () => {
  journal?.close();
  await server?.stop();
  await service?.close();
});

/**
 * Rate-limit counters and per-account throttling's streaks count refused attempts too: that is
 * what they are for; the audit trail records a refused sign-in (`user.sign_in_failed`).
 */
const WRITTEN_ON_REFUSAL = new Set(["rate_limit_counters", "failure_streaks", "audit_events"]);
/**
 * Tables a refusal may update, and only update: a wrong emailed or second-factor code is
 * counted against the code it guessed (its `failures`), which is void after five.
 */
const UPDATED_ON_REFUSAL = new Set(["email_codes", "mfa_challenges"]);

function excerpt(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return JSON.stringify(text.length > 400 ? `${text.slice(0, 400)}…` : text);
}

/** Sends a case as it is described, its placeholders filled in. */
async function send(fuzzCase: FuzzCase) {
  const now = Math.floor(Date.now() / 1000);
  const values = {
    ...fixtures,
    // A new client address each time: one case's attempts never rate-limit the next.
    client: newClientAddress(),
    now: String(now),
    stale: String(now - 301),
    future: String(now + 301),
  };
  const request = toRawRequest(fuzzCase, values, signWebhook);
  return { request, response: await sendRawRequest(server.url, request) };
}

/** Sends one case and checks the three properties; throws a readable report when one breaks. */
async function exercise(kind: AnswerKind, fuzzCase: FuzzCase): Promise<void> {
  const filesBefore = filesUnder(uploads);
  const submissionsBefore = service.requests.length;
  journal.take();
  const { request, response } = await send(fuzzCase);
  const writes = journal.take();
  const broken = (rule: string) =>
    new Error(
      `${rule}\n  answer: ${response.status} ${String(response.headers["content-type"])} ${excerpt(response.body)}\n  writes: ${JSON.stringify(writes)}`,
    );

  // 1. Never a 5xx, but for the documented effect failure of /webhooks/orders, exactly.
  const body = request.body ?? new Uint8Array();
  const effectFailure =
    fuzzCase.route === "POST /webhooks/orders" ? ordersEffectFailure(body) : undefined;
  if (response.status >= 500) {
    if (response.status !== 500 || effectFailure === undefined) throw broken("never a 5xx");
    expect(answerJson(response), "the effect failure's envelope").toEqual({
      error: { code: "effect_failed", message: "Webhook processing failed", status: 500 },
    });
    if (Object.keys(writes).join() !== "webhook_events") {
      throw broken("an effect failure writes its event, and nothing else");
    }
    const event = await server.query<{ status: string; error: string }>(
      "SELECT status, error FROM webhook_events WHERE source = 'orders' AND event_id = ?",
      ordersEventId(body),
    );
    expect(event, "the failed event").toEqual([{ status: "failed", error: effectFailure }]);
    return;
  }
  const json = answerJson(response);
  if (effectFailure !== undefined && (json as { status?: unknown })?.status === "processed") {
    throw broken("an order.paid event its effect refuses is never processed");
  }
  if (kind === "graphql" && internalGraphqlErrors(json).length > 0) {
    throw broken("never an internal error in a GraphQL answer");
  }

  // 2. The envelope on a JSON route, a page on a page (a HEAD answer has no body to look at).
  const fault = fuzzCase.method === "HEAD" ? undefined : answerFault(kind, response);
  if (fault) throw broken(fault);

  // 3. Nothing written on a refusal.
  const refused = response.status >= 400 || (kind === "graphql" && ranNoGraphql(json));
  if (!refused) return;
  const written = Object.entries(writes)
    .filter(([table]) => !WRITTEN_ON_REFUSAL.has(table))
    .filter(([table, { insert, delete: deleted }]) => {
      return !UPDATED_ON_REFUSAL.has(table) || insert > 0 || deleted > 0;
    })
    .map(([table]) => table);
  if (written.length > 0) throw broken(`nothing written on a refusal (written: ${written})`);
  const filesAfter = filesUnder(uploads);
  const added = [...filesAfter].filter((file) => !filesBefore.has(file));
  const removed = [...filesBefore].filter((file) => !filesAfter.has(file));
  if (added.length > 0 || removed.length > 0) {
    throw broken(`no file stored or removed on a refusal (added ${added}; removed ${removed})`);
  }
  if (service.requests.length !== submissionsBefore) throw broken("no job submitted on a refusal");
}

/** Runs the group's cases with the seed and its bounds; fails with fast-check's report. */
async function fuzz(group: RouteGroup): Promise<void> {
  const kinds = new Map(group.routes.map((route) => [route.route, route.kind]));
  const cases: Arbitrary<FuzzCase> = fc.oneof(...group.routes.map((route) => route.cases));
  // fast-check's time limit returns without waiting for the case under way: it is awaited
  // here, so its writes are not taken for the next test's.
  let underWay: Promise<unknown> = Promise.resolve();
  const run = (fuzzCase: FuzzCase) => {
    const result = exercise(kinds.get(fuzzCase.route)!, fuzzCase);
    underWay = result.catch(() => {});
    return result;
  };
  const details = await fc.check(fc.asyncProperty(cases, run), {
    seed: SEED,
    numRuns: group.numRuns * SCALE,
    plugins: [fc.interruptAfterTimeLimit(group.budgetMs * SCALE)],
    ...(REPLAY_PATH ? { path: REPLAY_PATH, endOnFailure: true } : {}),
  });
  await underWay;
  console.log(`route fuzzing, ${group.name}: ${details.numRuns} cases (seed ${SEED})`);
  if (details.failed) {
    const cause = details.errorInstance;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new Error(`${await fc.asyncDefaultReportMessage(details)}\nGot: ${reason}`);
  }
}

const response = (status: number, type: string, body: string): RawResponse => ({
  status,
  headers: { "content-type": type },
  body: Buffer.from(body),
});

describe("route fuzzing", () => {
  it("covers every route the app mounts", async () => {
    const fuzzed = new Set(routeGroups.flatMap((group) => group.routes.map(({ route }) => route)));
    const mounted = await appRoutes({ ...ENVIRONMENT, RENDER_URL: "http://127.0.0.1:9/render" });
    expect(mounted.filter((route) => !fuzzed.has(route))).toEqual([]);
  });

  it("notices what it guards against: a write, a page that is JSON, a broken envelope", async () => {
    journal.take();
    const created = await send(
      readable({
        route: "POST /api/notes",
        method: "POST",
        path: "/api/notes",
        headers: [
          ["authorization", "Bearer {owner}"],
          ["content-type", "application/json"],
        ],
        body: { kind: "text", text: '{"title":"Seen"}' },
      }),
    );
    expect(created.response.status).toBe(201);
    expect(journal.take()).toEqual({ notes: { insert: 1, update: 0, delete: 0 } });

    const envelope = '{"error":{"code":"not_found","message":"Not found","status":404}}';
    expect(answerFault("json", response(404, "application/json", envelope))).toBeUndefined();
    expect(answerFault("page", response(404, "application/json", envelope))).toMatch(/text\/html/);
    expect(answerFault("json", response(400, "application/json", envelope))).toMatch(/status/);
    const uncoded = '{"error":{"message":"Not found","status":404}}';
    expect(answerFault("json", response(404, "application/json", uncoded))).toMatch(/code/);
    expect(answerFault("json", response(404, "text/html", "<!doctype html></html>"))).toMatch(
      /not JSON/,
    );
    expect(answerFault("page", response(400, "text/html", "Bad request"))).toMatch(/HTML document/);
    expect(
      internalGraphqlErrors({ errors: [{ message: "Maximum call stack size exceeded" }] }),
    ).toHaveLength(1);
  });

  for (const group of routeGroups) {
    it(group.name, () => fuzz(group), group.budgetMs * SCALE + 30_000);
  }
});
