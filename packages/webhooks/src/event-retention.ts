/**
 * A store that can forget old processed events. Kept apart from `WebhookEventStore` so
 * that a store without retention still serves the processor.
 */
export interface WebhookEventPruner {
  /**
   * Deletes up to `limit` events that are `processed` and were last updated before `before`
   * (epoch milliseconds), in one atomic step, and returns how many it deleted. Events still
   * `processing` or `failed` are never deleted: they have an effect left to run.
   */
  deleteProcessedBefore(before: number, limit: number): Promise<number>;
}

/** Rows deleted per statement: short enough that no request waits long behind one. */
export const RETENTION_BATCH_SIZE = 1000;

/** Options of {@link deleteProcessedEvents}. */
export interface DeleteProcessedEventsOptions {
  /** Processed events last updated before this time (epoch milliseconds) are deleted. */
  readonly before: number;
  /** Rows per statement (default {@link RETENTION_BATCH_SIZE}). */
  readonly batchSize?: number | undefined;
  /** Stops between batches once aborted (a server shutting down). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Deletes the processed events older than `before`, `batchSize` rows per statement, yielding
 * to other work between statements, until a batch comes back short. Safe to run in several
 * processes at once: each statement is atomic, and they share the rows between them.
 * A deleted event is forgotten: a delivery of it after that runs its effect again, so keep
 * events longer than any sender retries. Returns how many events this call deleted.
 */
export async function deleteProcessedEvents(
  store: WebhookEventPruner,
  options: DeleteProcessedEventsOptions,
): Promise<number> {
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError("the batch size must be a positive integer");
  }
  let deleted = 0;
  while (!options.signal?.aborted) {
    const batch = await store.deleteProcessedBefore(options.before, batchSize);
    deleted += batch;
    if (batch < batchSize) break;
    // A macrotask turn, not a microtask: requests that arrived meanwhile get served first.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return deleted;
}
