import type { CleanupTask } from "@tessera/core";

/**
 * A store whose counters outlive their window until deleted (`SqlRateLimitStore`): the memory
 * store sweeps its own as windows change and needs no cleanup.
 */
export interface EndedWindowPruner {
  /** Deletes the counters of windows of `windowMs` ended at `now`; returns how many. */
  deleteEndedWindows(now: number, windowMs?: number): Promise<number>;
}

/** Options of {@link rateLimitCleanups}. */
export interface RateLimitCleanupOptions {
  /** The window the counters were counted in (default the limiter's default, 60 s). */
  readonly windowMs?: number | undefined;
}

/**
 * The cleanup of rate-limit counters as a {@link CleanupTask}: `ended-rate-limit-windows`
 * deletes the counters of windows ended at the run's time. Give it the longest window the app
 * counts in, or a live window's counters would go.
 *
 * @example
 * ```ts
 * import { systemClock } from "@tessera/core";
 * import { rateLimitCleanups } from "@tessera/ratelimit";
 * import { SqlRateLimitStore } from "@tessera/ratelimit/sql";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const store = new SqlRateLimitStore(openSqliteFile("app.db"));
 * for (const task of rateLimitCleanups(store)) await task.run(systemClock());
 * ```
 */
export function rateLimitCleanups(
  store: EndedWindowPruner,
  options: RateLimitCleanupOptions = {},
): CleanupTask[] {
  return [
    {
      name: "ended-rate-limit-windows",
      run: async (now) => ({ removed: await store.deleteEndedWindows(now, options.windowMs) }),
    },
  ];
}
