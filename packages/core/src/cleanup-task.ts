/** What one run of a {@link CleanupTask} did. */
export interface CleanupOutcome {
  /** How many rows (or stored objects) the run deleted. */
  readonly removed: number;
}

/**
 * A package's periodic cleanup, in the one shape every package gives it: rows that are never
 * read again (expired sessions, counters of ended windows, old processed events) deleted outside
 * requests. An app collects the tasks of the packages it uses and runs each at start and then
 * periodically; a run is safe in several processes at once.
 *
 * Stores hold no clock, so the caller passes `now`: a run deletes what is due at that time.
 *
 * @example
 * ```ts
 * import { type CleanupTask, systemClock } from "@tessera/core";
 *
 * declare const tasks: readonly CleanupTask[]; // e.g. sessionCleanups(…), rateLimitCleanups(…)
 *
 * for (const task of tasks) {
 *   const { removed } = await task.run(systemClock());
 *   console.log(`${task.name}: ${removed} deleted`);
 * }
 * ```
 */
export interface CleanupTask {
  /** A stable kebab-case name for logs and reports: `expired-tracked-sessions`. */
  readonly name: string;
  /** Deletes what is due at `now` (epoch milliseconds) and says how much went. */
  run(now: number): Promise<CleanupOutcome>;
}
