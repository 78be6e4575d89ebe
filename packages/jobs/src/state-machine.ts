import { isFinishedStatus, type JobStatus, jobStatusRank } from "./job-status.js";
import type { ReportedStatus } from "./status-words.js";

/** The part of a job the state machine moves. */
export interface JobState {
  readonly status: JobStatus;
  /** 0 to 100; never decreases; 100 once done. */
  readonly progress: number;
  /** The remote service's id for the job, from its answer to the submission. */
  readonly externalId: string | null;
  /** The service's output as JSON text. */
  readonly result: string | null;
  /** The last submission error while queued; the failure's text once failed. */
  readonly error: string | null;
}

/** Something that happened to a job. Each is applied by {@link advanceJob}. */
export type JobEvent =
  /** The service answered the submission 2xx; `externalId` from its answer's `id`, if any. */
  | { readonly type: "accepted"; readonly externalId: string | null }
  /** The submission did not get a 2xx answer. */
  | { readonly type: "refused"; readonly error: string }
  /** A callback: the status its word stands for, and what else it carried. */
  | {
      readonly type: "reported";
      readonly status: ReportedStatus;
      /** The word as sent, for the default failure text. */
      readonly word: string;
      /** An integer 0 to 100; only a `running` report moves progress. */
      readonly progress?: number | undefined;
      /** Output as JSON text; kept by `done` and `failed` reports. */
      readonly result?: string | undefined;
      /** Kept by a `failed` report; without it the job stores `the service reported <word>`. */
      readonly error?: string | undefined;
    }
  /** The sweep found a submitted or running job without news for too long. */
  | { readonly type: "stale"; readonly error: string }
  /** The sweep found a queued job whose submission attempts are used up. */
  | { readonly type: "exhausted"; readonly error: string };

/**
 * The state after `event`, or undefined when the event changes nothing. Pure. Events only move
 * a job forward: a finished job never changes, a status never goes back (a `running` report
 * for a running job only raises progress), progress never decreases, and `done` sets 100.
 */
export function advanceJob(state: JobState, event: JobEvent): JobState | undefined {
  if (isFinishedStatus(state.status)) return undefined;
  switch (event.type) {
    case "accepted":
      if (state.status === "queued") {
        return { ...state, status: "submitted", externalId: event.externalId, error: null };
      }
      // The job's callbacks outran the answer to its submission: still record whose job it is.
      return state.externalId === null && event.externalId !== null
        ? { ...state, externalId: event.externalId }
        : undefined;
    case "refused":
      return state.status === "queued" && state.error !== event.error
        ? { ...state, error: event.error }
        : undefined;
    case "exhausted":
      return state.status === "queued"
        ? { ...state, status: "failed", error: event.error }
        : undefined;
    case "stale":
      return state.status === "queued"
        ? undefined
        : { ...state, status: "failed", error: event.error };
    case "reported":
      return changedOrUndefined(state, report(state, event));
  }
}

function report(state: JobState, event: Extract<JobEvent, { type: "reported" }>): JobState {
  switch (event.status) {
    case "done":
      return { ...state, status: "done", progress: 100, result: event.result ?? null, error: null };
    case "failed":
      return {
        ...state,
        status: "failed",
        result: event.result ?? null,
        error: event.error ?? `the service reported ${event.word}`,
      };
    default: {
      const moves = jobStatusRank(event.status) > jobStatusRank(state.status);
      const status = moves ? event.status : state.status;
      const progress =
        event.status === "running" && event.progress !== undefined
          ? Math.max(state.progress, event.progress)
          : state.progress;
      // A queued job's last submission error is history once the service reports the job.
      return moves ? { ...state, status, progress, error: null } : { ...state, progress };
    }
  }
}

function changedOrUndefined(before: JobState, after: JobState): JobState | undefined {
  return before.status === after.status &&
    before.progress === after.progress &&
    before.externalId === after.externalId &&
    before.result === after.result &&
    before.error === after.error
    ? undefined
    : after;
}
