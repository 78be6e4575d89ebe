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
  readonly batchSize?: number;
  /** Stops between batches once aborted (a server shutting down). */
  readonly signal?: AbortSignal;
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

/** Options of {@link scheduleEventRetention}. */
export interface EventRetentionOptions {
  /** Processed events older than this many milliseconds are deleted. */
  readonly keepMs: number;
  /** Period between runs (default one hour); the first run starts at once. */
  readonly intervalMs?: number;
  /** The time source (default `Date.now`). */
  readonly clock?: () => number;
  /** Receives each run's count of deleted events, for logs. */
  readonly onDeleted?: (count: number) => void;
  /**
   * Receives a run's error; the schedule goes on. Default: logged with `console.error`, since
   * an error swallowed here would hide a broken database.
   */
  readonly onError?: (error: unknown) => void;
}

/** How often {@link scheduleEventRetention} runs by default: hourly. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes processed events older than `keepMs` now and then every `intervalMs`, with
 * {@link deleteProcessedEvents}, until the returned function is called (which also stops a run
 * between batches). A run still going when the next is due makes that tick skip.
 */
export function scheduleEventRetention(
  store: WebhookEventPruner,
  options: EventRetentionOptions,
): () => void {
  const intervalMs = options.intervalMs ?? RETENTION_INTERVAL_MS;
  if (!(options.keepMs > 0)) throw new RangeError("the retention period must be positive");
  if (!(intervalMs > 0)) throw new RangeError("the retention interval must be positive");
  const clock = options.clock ?? Date.now;
  const onError =
    options.onError ?? ((error) => console.error("webhook event retention failed:", error));
  const stopped = new AbortController();
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const count = await deleteProcessedEvents(store, {
        before: clock() - options.keepMs,
        signal: stopped.signal,
      });
      options.onDeleted?.(count);
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(run, intervalMs);
  // A schedule of housekeeping must not keep a process alive on its own.
  (timer as { unref?: () => void }).unref?.();
  return () => {
    clearInterval(timer);
    stopped.abort();
  };
}
