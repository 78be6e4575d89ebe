import { describe, expect, it } from "vitest";
import { advanceJob, type JobEvent, type JobState } from "../src/index.js";

const queued: JobState = {
  status: "queued",
  progress: 0,
  externalId: null,
  result: null,
  error: null,
};
const submitted: JobState = { ...queued, status: "submitted", externalId: "ext-1" };
const running: JobState = { ...submitted, status: "running", progress: 40 };
const done: JobState = { ...running, status: "done", progress: 100, result: '"out"' };
const failed: JobState = { ...running, status: "failed", error: "boom" };

const report = (word: string, status: string, extra: object = {}): JobEvent =>
  ({ type: "reported", word, status, ...extra }) as JobEvent;

describe("advanceJob: the documented job state table", () => {
  it("queued → submitted on a 2xx answer, with the external id, clearing the last error", () => {
    expect(
      advanceJob({ ...queued, error: "answered 500" }, { type: "accepted", externalId: "x" }),
    ).toEqual({ ...queued, status: "submitted", externalId: "x" });
  });

  it("queued stays queued on any other answer, with the error stored", () => {
    expect(advanceJob(queued, { type: "refused", error: "answered 500: busy" })).toEqual({
      ...queued,
      error: "answered 500: busy",
    });
    expect(advanceJob({ ...queued, error: "same" }, { type: "refused", error: "same" })).toBe(
      undefined,
    );
  });

  it("queued → failed when the sweep finds the attempts used up", () => {
    expect(advanceJob(queued, { type: "exhausted", error: "gave up" })).toEqual({
      ...queued,
      status: "failed",
      error: "gave up",
    });
    expect(advanceJob(submitted, { type: "exhausted", error: "gave up" })).toBeUndefined();
  });

  it("submitted → running, and running raises progress", () => {
    expect(advanceJob(submitted, report("IN_PROGRESS", "running", { progress: 10 }))).toEqual({
      ...submitted,
      status: "running",
      progress: 10,
    });
    expect(advanceJob(running, report("running", "running", { progress: 55 }))).toEqual({
      ...running,
      progress: 55,
    });
  });

  it("submitted or running → done with progress 100 and the result", () => {
    for (const state of [submitted, running]) {
      expect(advanceJob(state, report("COMPLETED", "done", { result: "[1]" }))).toEqual({
        ...state,
        status: "done",
        progress: 100,
        result: "[1]",
      });
    }
  });

  it("submitted or running → failed with the error, or `the service reported <word>`", () => {
    expect(advanceJob(running, report("failed", "failed", { error: "oom" }))).toEqual({
      ...running,
      status: "failed",
      error: "oom",
    });
    expect(advanceJob(submitted, report("TIMED_OUT", "failed"))).toEqual({
      ...submitted,
      status: "failed",
      error: "the service reported TIMED_OUT",
    });
  });

  it("submitted or running → failed when the sweep finds no news", () => {
    for (const state of [submitted, running]) {
      expect(advanceJob(state, { type: "stale", error: "no news" })).toEqual({
        ...state,
        status: "failed",
        error: "no news",
      });
    }
    expect(advanceJob(queued, { type: "stale", error: "no news" })).toBeUndefined();
  });
});

describe("advanceJob: events only move a job forward", () => {
  it("changes nothing for a late or repeated event", () => {
    expect(advanceJob(running, report("in_queue", "submitted"))).toBeUndefined();
    expect(advanceJob(running, report("running", "running", { progress: 40 }))).toBeUndefined();
    expect(advanceJob(running, report("running", "running", { progress: 10 }))).toBeUndefined();
    expect(advanceJob(running, report("running", "running"))).toBeUndefined();
    expect(advanceJob(submitted, report("queued", "submitted"))).toBeUndefined();
  });

  it("never changes a finished job", () => {
    const events: JobEvent[] = [
      report("running", "running", { progress: 10 }),
      report("done", "done", { result: '"other"' }),
      report("failed", "failed"),
      { type: "accepted", externalId: "y" },
      { type: "refused", error: "x" },
      { type: "stale", error: "x" },
      { type: "exhausted", error: "x" },
    ];
    for (const state of [done, failed]) {
      for (const event of events) expect(advanceJob(state, event)).toBeUndefined();
    }
  });

  it("moves progress only on running reports", () => {
    expect(advanceJob(submitted, report("IN_QUEUE", "submitted", { progress: 30 }))).toBe(
      undefined,
    );
    expect(advanceJob(running, report("IN_QUEUE", "submitted", { progress: 90 }))).toBe(undefined);
  });

  it("lets a report move a queued job: the service has it although its answer was lost", () => {
    expect(advanceJob({ ...queued, error: "timeout" }, report("started", "running"))).toEqual({
      ...queued,
      status: "running",
    });
    expect(advanceJob(queued, report("IN_QUEUE", "submitted"))).toEqual({
      ...queued,
      status: "submitted",
    });
  });

  it("records a late acceptance's external id without moving the job back", () => {
    const early = { ...running, externalId: null };
    expect(advanceJob(early, { type: "accepted", externalId: "x" })).toEqual({
      ...early,
      externalId: "x",
    });
    expect(advanceJob(running, { type: "accepted", externalId: "other" })).toBeUndefined();
    expect(advanceJob(running, { type: "refused", error: "late" })).toBeUndefined();
  });
});
