import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  advanceJob,
  createJobRunner,
  isFinishedStatus,
  type JobEvent,
  type JobState,
  type JobStatus,
  jobStatusRank,
  jobTokenKeys,
  MemoryJobStore,
} from "../src/index.js";
import { callbackContext } from "./callback-context.js";
import { render, SECRET_KEY_BASE, SERVICE_SECRET } from "./runner-setup.js";

// The documented state table as edges; a job may only ever be where these lead from `queued`.
const EDGES: readonly [JobStatus, JobStatus][] = [
  ["queued", "queued"],
  ["queued", "submitted"],
  ["queued", "failed"],
  ["submitted", "running"],
  ["running", "running"],
  ["submitted", "done"],
  ["running", "done"],
  ["submitted", "failed"],
  ["running", "failed"],
];

/** Reflexive-transitive closure of the table: which statuses can follow which. */
function reachableFrom(status: JobStatus): Set<JobStatus> {
  const reached = new Set<JobStatus>([status]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [from, to] of EDGES) {
      if (reached.has(from) && !reached.has(to)) {
        reached.add(to);
        grew = true;
      }
    }
  }
  return reached;
}

const WORDS = [
  "in_queue",
  "queued",
  "starting",
  "running",
  "started",
  "processing",
  "in_progress",
  "done",
  "completed",
  "succeeded",
  "success",
  "failed",
  "error",
  "cancelled",
  "canceled",
  "timed_out",
];
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(""));
const word = fc.constantFrom(...WORDS).chain(anyCase);
const STATUS_OF: Record<string, "submitted" | "running" | "done" | "failed"> = {};
for (const w of WORDS.slice(0, 3)) STATUS_OF[w] = "submitted";
for (const w of WORDS.slice(3, 7)) STATUS_OF[w] = "running";
for (const w of WORDS.slice(7, 11)) STATUS_OF[w] = "done";
for (const w of WORDS.slice(11)) STATUS_OF[w] = "failed";

const event: fc.Arbitrary<JobEvent> = fc.oneof(
  fc
    .record({
      type: fc.constant("reported" as const),
      word,
      progress: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      result: fc.option(fc.json(), { nil: undefined }),
      error: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    })
    .map((e) => ({ ...e, status: STATUS_OF[e.word.toLowerCase()]! })),
  fc.record({
    type: fc.constant("accepted" as const),
    externalId: fc.option(fc.string({ minLength: 1 }), { nil: null }),
  }),
  fc.record({ type: fc.constant("refused" as const), error: fc.string({ minLength: 1 }) }),
  fc.record({ type: fc.constant("stale" as const), error: fc.string({ minLength: 1 }) }),
  fc.record({ type: fc.constant("exhausted" as const), error: fc.string({ minLength: 1 }) }),
);

/** What must hold of any state a job can be in. */
function expectWellFormed(state: JobState): void {
  expect(Number.isInteger(state.progress) && state.progress >= 0 && state.progress <= 100).toBe(
    true,
  );
  if (state.status === "queued" || state.status === "submitted") {
    expect(state.progress).toBe(0);
    expect(state.result).toBeNull();
  }
  if (state.status === "queued") expect(state.externalId).toBeNull();
  if (state.status === "submitted" || state.status === "running" || state.status === "done") {
    expect(state.error).toBeNull();
  }
  if (state.status === "running") expect(state.result).toBeNull();
  if (state.status === "done") expect(state.progress).toBe(100);
  if (state.status === "failed") expect(state.error).toEqual(expect.any(String));
}

/** What must hold of one step: forward only, progress never lower, a finished job frozen. */
function expectForward(before: JobState, after: JobState): void {
  expect(reachableFrom(before.status).has(after.status)).toBe(true);
  expect(jobStatusRank(after.status)).toBeGreaterThanOrEqual(jobStatusRank(before.status));
  expect(after.progress).toBeGreaterThanOrEqual(before.progress);
  if (isFinishedStatus(before.status)) expect(after).toEqual(before);
}

const QUEUED: JobState = {
  status: "queued",
  progress: 0,
  externalId: null,
  result: null,
  error: null,
};

describe("the job state machine, for any sequence of events", () => {
  it("only reaches states of the table and never moves back", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        let state = QUEUED;
        for (const next of events) {
          const after = advanceJob(state, next) ?? state;
          expectForward(state, after);
          expectWellFormed(after);
          // Applying the same event again changes nothing: events are idempotent.
          expect(advanceJob(after, next)).toBeUndefined();
          state = after;
        }
      }),
      { numRuns: 2000 },
    );
  });
});

const callbackBody = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        status: word,
        progress: fc.integer({ min: 0, max: 100 }),
        output: fc.json().map((text) => JSON.parse(text) as unknown),
        error: fc.string(),
      },
      { requiredKeys: ["status"] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ status: fc.string(), progress: fc.integer() }) },
);

describe("the callback handler, for any sequence of callbacks", () => {
  it("moves a stored job only forward, and runs the hook once per change", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callbackBody, { maxLength: 12 }), async (bodies) => {
        const store = new MemoryJobStore(render);
        let changes = 0;
        const runner = createJobRunner({
          definition: render,
          store,
          url: "https://render.example/jobs",
          secret: SERVICE_SECRET,
          appUrl: "https://app.example",
          tokenKeys: jobTokenKeys({ current: SECRET_KEY_BASE }),
          fetch: async () => Response.json({ id: "ext" }, { status: 202 }),
          onChange: () => {
            changes++;
          },
        });
        let job = await runner.start(1, { prompt: "p", width: null });
        const url = runner.callbackUrl(job);
        let expectedChanges = 2; // creation, submission
        for (const body of bodies) {
          const response = await runner.handleCallback(
            new Request(url, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify(body),
            }),
            callbackContext(String(job.id)),
          );
          const after = (await store.find(job.id))!;
          expect([200, 400]).toContain(response.status);
          if (response.status === 400) expect(after).toEqual(job);
          expectForward(job, after);
          expectWellFormed(after);
          if (changedState(job, after)) expectedChanges++;
          job = after;
        }
        expect(changes).toBe(expectedChanges);
      }),
      { numRuns: 200 },
    );
  });
});

function changedState(a: JobState, b: JobState): boolean {
  return (
    a.status !== b.status ||
    a.progress !== b.progress ||
    a.externalId !== b.externalId ||
    a.result !== b.result ||
    a.error !== b.error
  );
}
