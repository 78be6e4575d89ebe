/** Where an external job stands (docs/webhooks-and-jobs.md, "States"). */
export type JobStatus = "queued" | "submitted" | "running" | "done" | "failed";

/** The five statuses in the order a job moves through them; `done` and `failed` both end it. */
export const JOB_STATUSES: readonly JobStatus[] = [
  "queued",
  "submitted",
  "running",
  "done",
  "failed",
];

const RANK: Readonly<Record<JobStatus, number>> = {
  queued: 0,
  submitted: 1,
  running: 2,
  done: 3,
  failed: 3,
};

/**
 * How far along a status is: 0 queued, 1 submitted, 2 running, 3 done or failed. A job's rank
 * never decreases, and a job at rank 3 never changes again.
 */
export function jobStatusRank(status: JobStatus): number {
  return RANK[status];
}

/** True for `done` and `failed`: the job will not change any more. */
export function isFinishedStatus(status: JobStatus): status is "done" | "failed" {
  return RANK[status] === 3;
}
