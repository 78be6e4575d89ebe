import type { CleanupTask } from "@tessera/core";
import { deleteProcessedEvents, type WebhookEventPruner } from "./event-retention.js";

/** Options of {@link webhookCleanups}. */
export interface WebhookCleanupOptions {
  /** How long a processed event is kept after its last update, in milliseconds; positive. */
  readonly retentionMs: number;
  /** Stops between batches once aborted (a server shutting down). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The retention of webhook events as a {@link CleanupTask}: `old-webhook-events` deletes the
 * processed events last updated more than `retentionMs` before the run's time, in batches (see
 * {@link deleteProcessedEvents}). A deleted event is forgotten, so keep events longer than any
 * sender retries; an app that keeps every event leaves this task out.
 *
 * @throws {RangeError} for a retention that is not a positive number.
 * @example
 * ```ts
 * import { systemClock } from "@tessera/core";
 * import { MemoryWebhookEventStore, webhookCleanups } from "@tessera/webhooks";
 *
 * const thirtyDays = 30 * 24 * 60 * 60 * 1000;
 * const tasks = webhookCleanups(new MemoryWebhookEventStore(), { retentionMs: thirtyDays });
 * for (const task of tasks) await task.run(systemClock());
 * ```
 */
export function webhookCleanups(
  store: WebhookEventPruner,
  options: WebhookCleanupOptions,
): CleanupTask[] {
  if (!(options.retentionMs > 0)) throw new RangeError("the retention must be a positive number");
  return [
    {
      name: "old-webhook-events",
      run: async (now) => ({
        removed: await deleteProcessedEvents(store, {
          before: now - options.retentionMs,
          ...(options.signal ? { signal: options.signal } : {}),
        }),
      }),
    },
  ];
}
