import type { Clock } from "@tessera/core";
import { isFinishedStatus } from "./job-status.js";
import type { JobRecord, JobStore } from "./job-store.js";
import { advanceJob, type JobEvent } from "./state-machine.js";

/** What led to a change. */
export type JobChangeCause = "start" | "submission" | "callback" | "sweep";

/** One change of a job, as the change hook sees it. */
export interface JobChange {
  readonly cause: JobChangeCause;
  /** The job after the change, as stored. */
  readonly job: JobRecord;
  /** The job before it; undefined when the job was just created. */
  readonly previous: JobRecord | undefined;
}

/**
 * Runs after every change of a job (creation, status, progress, result, error or external id),
 * once per change and never for an event that changed nothing. The change is already stored
 * when it runs; if it throws, the error reaches whoever caused the change (the callback's
 * caller, `start`, `sweep`) and the change stays.
 */
export type JobChangeHook = (change: JobChange) => void | Promise<void>;

/** The job as stored after an event (undefined if deleted meanwhile), and whether it changed. */
export interface JobMove {
  readonly job: JobRecord | undefined;
  readonly changed: boolean;
}

/** Applies an event to a stored job: see {@link createJobMover}. */
export type JobMover = (
  job: JobRecord,
  event: JobEvent,
  cause: JobChangeCause,
  options?: JobMoveOptions,
) => Promise<JobMove>;

/** How {@link createJobMover} treats an event. */
export interface JobMoveOptions {
  /** Refresh `updatedAt` of an unfinished job even when the event changes nothing. */
  readonly heartbeat?: boolean | undefined;
  /**
   * Drop the event when the job changed since it was read, instead of re-reading and applying
   * it again: for the sweep, whose verdict ("no news for an hour") holds only for what it read.
   */
  readonly onlyIfUnchanged?: boolean | undefined;
}

// Every lost compare-and-set means another writer moved the job forward, and a job can only
// move forward a bounded number of times; this bound is far above any real race.
const MAX_LOST_RACES = 200;

/**
 * Applies events through the state machine and the store's compare-and-set: read state in,
 * {@link advanceJob}, conditional write, and on a lost race re-read and apply again. Runs the
 * hook once per stored change. With `heartbeat`, an event that changes nothing still refreshes
 * `updatedAt` of a job that is not finished: news from the service keeps it from going stale.
 */
export function createJobMover(
  store: JobStore,
  clock: Clock,
  onChange: JobChangeHook | undefined,
): JobMover {
  return async (job, event, cause, options = {}) => {
    let current: JobRecord | undefined = job;
    for (let race = 0; current && race < MAX_LOST_RACES; race++) {
      const next = advanceJob(current, event);
      if (next === undefined && !(options.heartbeat && !isFinishedStatus(current.status))) {
        return { job: current, changed: false };
      }
      const stored = await store.update(current, next ?? current, clock());
      if (stored) {
        if (next !== undefined) await onChange?.({ cause, job: stored, previous: current });
        return { job: stored, changed: next !== undefined };
      }
      current = await store.find(current.id);
      if (options.onlyIfUnchanged) return { job: current, changed: false };
    }
    if (current) throw new Error(`job ${current.id} kept changing while an event was applied`);
    return { job: undefined, changed: false };
  };
}
