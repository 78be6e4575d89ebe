import type { Clock } from "@tessera/core";
import type { JobMove, JobMover } from "./job-change.js";
import type { JobRecord, JobStore } from "./job-store.js";

/** What one sweep did, by job id. */
export interface SweepReport {
  /** Submitted or running jobs failed for lack of news. */
  readonly stale: readonly number[];
  /** Queued jobs failed because their submission attempts were used up. */
  readonly exhausted: readonly number[];
  /** Queued jobs submitted again. */
  readonly retried: readonly number[];
  /** Of those, the ones the service accepted this time. */
  readonly submitted: readonly number[];
}

/** The settings {@link sweepJobs} works with; {@link createJobRunner} supplies them. */
export interface SweepOptions {
  readonly store: JobStore;
  readonly clock: Clock;
  readonly move: JobMover;
  /** Makes one submission attempt of a job whose attempt is already counted. */
  readonly submit: (job: JobRecord) => Promise<JobRecord | undefined>;
  readonly maxAttempts: number;
  readonly retryAfterMs: number;
  readonly staleAfterMs: number;
  readonly retriesPerSweep: number;
  /** Most jobs failed per kind and run; the rest wait for the next run. */
  readonly failuresPerSweep: number;
}

/**
 * One sweep: fails submitted or running jobs without news for `staleAfterMs`; fails queued
 * jobs that used all their attempts once the last is `retryAfterMs` old (it has then finished,
 * since a submission times out well before); then claims up to `retriesPerSweep` other queued
 * jobs whose last attempt is that old and submits them again, all at once.
 */
export async function sweepJobs(options: SweepOptions): Promise<SweepReport> {
  const now = options.clock();
  const stale = await options.store.listStale({
    updatedBefore: now - options.staleAfterMs,
    limit: options.failuresPerSweep,
  });
  const staleError = `no news from the service for ${describeDuration(options.staleAfterMs)}`;
  const failedStale = await movedIds(stale, (job) =>
    options.move(job, { type: "stale", error: staleError }, "sweep", { onlyIfUnchanged: true }),
  );

  const lastAttemptBefore = now - options.retryAfterMs;
  const exhausted = await options.store.listExhausted({
    maxAttempts: options.maxAttempts,
    lastAttemptBefore,
    limit: options.failuresPerSweep,
  });
  const failedExhausted = await movedIds(exhausted, (job) => {
    const attempts = `${job.attempts} submission attempt${job.attempts === 1 ? "" : "s"}`;
    const error = `gave up after ${attempts}${job.error ? `: ${job.error}` : ""}`;
    return options.move(job, { type: "exhausted", error }, "sweep", { onlyIfUnchanged: true });
  });

  const claimed = await options.store.claimRetries({
    now,
    lastAttemptBefore,
    maxAttempts: options.maxAttempts,
    limit: options.retriesPerSweep,
  });
  const outcomes = await Promise.all(claimed.map((job) => options.submit(job)));
  return {
    stale: failedStale,
    exhausted: failedExhausted,
    retried: claimed.map((job) => job.id),
    submitted: outcomes.flatMap((job) => (job && job.status !== "queued" ? [job.id] : [])),
  };
}

/** Moves each job in turn; the ids of those this sweep changed (a callback may have won). */
async function movedIds(
  jobs: readonly JobRecord[],
  move: (job: JobRecord) => Promise<JobMove>,
): Promise<number[]> {
  const moved: number[] = [];
  for (const job of jobs) if ((await move(job)).changed) moved.push(job.id);
  return moved;
}

function describeDuration(ms: number): string {
  if (ms === 3_600_000) return "an hour";
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return `${ms / 60_000} minutes`;
  return `${Math.round(ms / 1000)} seconds`;
}
