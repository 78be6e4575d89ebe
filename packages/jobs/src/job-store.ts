import type { ListPage } from "@tessera/http";
import type { JobInput } from "./job-definition.js";
import type { JobState } from "./state-machine.js";

/** One job as stored. Times are epoch milliseconds (at the store's resolution). */
export interface JobRecord extends JobState {
  readonly id: number;
  /** The owner: jobs belong to a user and go with them. */
  readonly userId: number;
  /** In its JSON form (booleans true or false, json fields parsed), as `decodeInput` gives it. */
  readonly input: JobInput;
  /** Submission attempts made so far, the one in flight included. */
  readonly attempts: number;
  /** When the last submission attempt started. */
  readonly lastAttemptAt: number;
  readonly createdAt: number;
  /** Last write to the job: a change, a claimed attempt, or news from the service. */
  readonly updatedAt: number;
}

/** What {@link JobStore.create} needs. */
export interface NewJob {
  readonly userId: number;
  /** A decoded input (from `decodeInput`). */
  readonly input: JobInput;
  readonly now: number;
}

/** Which queued jobs {@link JobStore.claimRetries} takes. */
export interface RetryClaim {
  readonly now: number;
  /** Only jobs whose last attempt started before this time. */
  readonly lastAttemptBefore: number;
  /** Only jobs with fewer attempts than this. */
  readonly maxAttempts: number;
  readonly limit: number;
}

/**
 * Storage for one kind of job. `@tessera/sqlite` implements it on a `<job>_jobs` table; any
 * database with conditional updates can implement it too. Inputs are stored in the columns of
 * their fields (`inputToColumns`) and read back with `inputFromColumns`, so a job's
 * `input` is the same whichever store holds it.
 *
 * Atomicity: every write is ONE conditional statement.
 * - `update` is a compare-and-set: it writes only while the job's `status`, `progress` and
 *   `updatedAt` still equal those of `expected` (in SQL, `UPDATE ... WHERE id = ? AND status = ?
 *   AND progress = ? AND updated_at = ? RETURNING *`). Of two callbacks that read the same state,
 *   one writes and the other gets undefined, re-reads and applies its event to the new state,
 *   so no transition is applied twice from one state and progress cannot be lowered by a race.
 * - `claimRetries` counts an attempt (`attempts + 1`, `lastAttemptAt` and `updatedAt` = now) on
 *   each job it returns, in the same statement that selects them, so two sweeps running at once
 *   never submit the same job twice.
 */
export interface JobStore {
  /**
   * Inserts a job `queued` with progress 0, attempts 1 (the first submission is about to be
   * made) and `lastAttemptAt`, `createdAt`, `updatedAt` all `now`.
   */
  create(job: NewJob): Promise<JobRecord>;
  /** The job, whoever owns it: for callbacks and the sweep, never for a user's request. */
  find(id: number): Promise<JobRecord | undefined>;
  /** The job only if `userId` owns it, in one query: another user's job reads as missing. */
  findOwned(userId: number, id: number): Promise<JobRecord | undefined>;
  /** The user's jobs, newest first: `page.offset` skips, `page.after` starts below that id. */
  listOwned(userId: number, page: ListPage): Promise<JobRecord[]>;
  /** Compare-and-set (see above): writes `next` and `updatedAt = now`, or returns undefined. */
  update(expected: JobRecord, next: JobState, now: number): Promise<JobRecord | undefined>;
  /**
   * Claims up to `limit` queued jobs with attempts below `maxAttempts` whose last attempt started
   * before `lastAttemptBefore`, oldest attempt first, counting the new attempt on each.
   */
  claimRetries(claim: RetryClaim): Promise<JobRecord[]>;
  /** Queued jobs with at least `maxAttempts` attempts, the last started before the time given. */
  listExhausted(query: {
    readonly maxAttempts: number;
    readonly lastAttemptBefore: number;
    readonly limit: number;
  }): Promise<JobRecord[]>;
  /** Submitted or running jobs last updated before `updatedBefore`. */
  listStale(query: {
    readonly updatedBefore: number;
    readonly limit: number;
  }): Promise<JobRecord[]>;
}
