import type { CleanupTask } from "@tessera/core";
import type { Outbox } from "./outbox.js";

/** Options of {@link outboxCleanups}. */
export interface OutboxCleanupOptions {
  /** How long a done item is kept after it finished, in milliseconds; positive. */
  readonly retentionMs: number;
}

/**
 * The outbox's retention as a {@link CleanupTask}: `old-outbox-items` deletes the done items
 * that finished more than `retentionMs` before the run's time, in batches. Failed items are
 * kept, with their last error, until someone looks at them; pending ones are never touched.
 *
 * @throws {RangeError} for a retention that is not a positive number.
 * @example
 * ```ts
 * import { systemClock } from "@tessera/core";
 * import { MemoryOutbox, outboxCleanups } from "@tessera/outbox";
 *
 * const sevenDays = 7 * 24 * 60 * 60 * 1000;
 * for (const task of outboxCleanups(new MemoryOutbox(), { retentionMs: sevenDays })) {
 *   await task.run(systemClock());
 * }
 * ```
 */
export function outboxCleanups(
  outbox: Pick<Outbox<unknown>, "prune">,
  options: OutboxCleanupOptions,
): CleanupTask[] {
  if (!(options.retentionMs > 0)) throw new RangeError("the retention must be a positive number");
  return [
    {
      name: "old-outbox-items",
      run: async (now) => ({
        removed: await outbox.prune({ olderThan: now - options.retentionMs }),
      }),
    },
  ];
}
