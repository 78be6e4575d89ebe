import type { CleanupTask } from "@tessera/core";
import type { TrackedSessionStore } from "./tracked-session-store.js";

/**
 * The cleanup of tracked sessions as a {@link CleanupTask}: `expired-tracked-sessions` deletes
 * the rows of every sign-in expired at the run's time (expired rows already refuse their
 * cookies; this keeps the table small). Run it outside requests, at start and then periodically.
 *
 * @example
 * ```ts
 * import { systemClock } from "@tessera/core";
 * import { type TrackedSessionStore, trackedSessionCleanups } from "@tessera/session";
 *
 * declare const store: TrackedSessionStore; // SqlTrackedSessionStore from @tessera/session/sql
 *
 * for (const task of trackedSessionCleanups(store)) {
 *   console.log(task.name, (await task.run(systemClock())).removed);
 * }
 * ```
 */
export function trackedSessionCleanups(store: TrackedSessionStore): CleanupTask[] {
  return [
    {
      name: "expired-tracked-sessions",
      run: async (now) => ({ removed: await store.deleteExpired(now) }),
    },
  ];
}
