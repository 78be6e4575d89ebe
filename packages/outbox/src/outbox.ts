/** Where an item stands: waiting (or leased) for delivery, delivered, or given up on. */
export type OutboxStatus = "pending" | "done" | "failed";

/** One item of an outbox, as a claim, a find or a runner sees it. Times are epoch milliseconds. */
export interface OutboxItem {
  readonly id: number;
  /** The kind of work it is (`mail`, `webhook`): each runner drains one queue. */
  readonly queue: string;
  /**
   * Stable for the item's whole life and unique within its queue: pass it to the provider as
   * its idempotency key, so a delivery repeated after a crash is recognised.
   */
  readonly key: string;
  /** The payload as it was enqueued (parsed back from its JSON). */
  readonly payload: unknown;
  readonly status: OutboxStatus;
  /** Claims so far, this one included: 1 on the first delivery. */
  readonly attempts: number;
  /** When the item is next due. */
  readonly runAt: number;
  /** Until when its holder's lease runs, or null when nobody holds it. */
  readonly leaseUntil: number | null;
  /** Who holds (or last held) the lease. */
  readonly leaseOwner: string | null;
  /**
   * Whose work it is, for a runner's fair share (a mail's recipient, a webhook's owner): a
   * runner runs at most `keyConcurrency` items of one key at once. Null: no share, never held
   * back.
   */
  readonly fairnessKey: string | null;
  /** Why the last attempt failed, or null. A failed item keeps it. */
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When it was delivered or given up on, or null while pending. */
  readonly finishedAt: number | null;
}

/** Options of {@link Outbox.enqueue}. */
export interface EnqueueOptions {
  /**
   * The item's idempotency key (at most 200 characters): enqueueing the same key twice in a
   * queue keeps the first item only. A random one is made when it is left out.
   */
  readonly key?: string | undefined;
  /** When the item is first due (default: now). */
  readonly runAt?: number | undefined;
  /**
   * Whose work it is (1 to 200 characters): a runner gives each key a fair share of its
   * deliveries, so one recipient's or owner's slow items cannot hold everyone else's. Left out,
   * the item is in no share.
   */
  readonly fairnessKey?: string | undefined;
}

/** What {@link Outbox.enqueue} did. */
export interface EnqueueResult {
  /** The item's key: the one given, or the one made for it. */
  readonly key: string;
  /**
   * False when the queue already held an item with that key (nothing was written). Undefined
   * inside a D1 transaction, whose writes run as one batch when it ends: not known yet.
   */
  readonly created: boolean | undefined;
}

/** Options of {@link Outbox.claim}. */
export interface ClaimOptions {
  /** Items to claim at most (a positive integer). */
  readonly limit: number;
  /**
   * How long the claim holds each item, in milliseconds: longer than a delivery can take, since
   * once it runs out another worker may take the item and deliver it again.
   */
  readonly leaseMs: number;
  /** Who claims: each worker (process or runner) its own name. */
  readonly owner: string;
  /**
   * Fairness keys whose items are left for now (a runner's keys that have used their share);
   * items without a key are never left.
   */
  readonly excludeFairnessKeys?: readonly string[] | undefined;
}

/** Options of {@link Outbox.list}. */
export interface ListOptions {
  /** Items to return at most (a positive integer). */
  readonly limit: number;
}

/** Options of {@link Outbox.prune}. */
export interface PruneOptions {
  /** Done items finished before this time (epoch milliseconds) are deleted. */
  readonly olderThan: number;
  /** Rows per statement (default 1,000); between statements other work gets its turn. */
  readonly batchSize?: number | undefined;
}

/**
 * A durable outbox: work to do later, reliably. `Writer` is what `enqueue` writes through: for
 * the SQL outbox, the database or a transaction handle on it, so an item commits or rolls back
 * with the caller's own write.
 *
 * Each step is atomic. `claim` leases due items to one owner (pending items whose run time has
 * come and whose lease, if any, ran out) and counts an attempt; `complete`, `retry` and `fail`
 * take effect only while the caller's claim is the item's latest (same owner, same attempt), so
 * a worker whose lease ran out and was taken over cannot overwrite its successor's result.
 * They return whether they did.
 */
export interface Outbox<Writer> {
  /**
   * Adds an item to `queue` through `writer`, unless the queue already holds its key.
   * `payload` must survive `JSON.stringify`.
   * @throws {RangeError} for an empty, over-long or unstorable queue name or key, or a payload
   * that is not JSON.
   */
  enqueue(
    writer: Writer,
    queue: string,
    payload: unknown,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /**
   * Leases up to `limit` due items of `queue`, oldest run time first, leaving those whose
   * fairness key `excludeFairnessKeys` names.
   */
  claim(queue: string, options: ClaimOptions): Promise<OutboxItem[]>;
  /** Marks a claimed item done. */
  complete(item: OutboxItem): Promise<boolean>;
  /** Releases a claimed item with its error, due again at `nextRunAt`. */
  retry(item: OutboxItem, error: string, nextRunAt: number): Promise<boolean>;
  /** Gives a claimed item up for good, keeping its error. */
  fail(item: OutboxItem, error: string): Promise<boolean>;
  /** The item of `queue` with `key`, or undefined: for inspection and admin pages. */
  find(queue: string, key: string): Promise<OutboxItem | undefined>;
  /**
   * The newest items of `queue` (last enqueued first), whatever their status, up to `limit`:
   * for inspection and preview pages.
   * @throws {RangeError} for a limit that is not a positive integer.
   */
  list(queue: string, options: ListOptions): Promise<OutboxItem[]>;
  /** Deletes done items finished before `olderThan`, in batches; returns how many. */
  prune(options: PruneOptions): Promise<number>;
  /**
   * Calls `listener` with the queue's name after each `enqueue` through this outbox object, so
   * a runner in the same process can start at once. Returns the function that unsubscribes.
   */
  onEnqueue(listener: (queue: string) => void): () => void;
}
