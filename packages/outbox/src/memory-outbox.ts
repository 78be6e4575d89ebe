import { type Clock, systemClock } from "@tessera/core";
import { EnqueueSignal } from "./enqueue-signal.js";
import type {
  ClaimOptions,
  EnqueueOptions,
  EnqueueResult,
  ListOptions,
  Outbox,
  OutboxItem,
  PruneOptions,
} from "./outbox.js";
import {
  checkClaimOptions,
  checkedName,
  checkedTime,
  checkListOptions,
  fairnessKeyOf,
  itemKey,
  payloadJson,
  storableError,
} from "./outbox-input.js";

/** An item as the memory outbox keeps it: its payload as JSON text, as a table would. */
type StoredItem = Omit<OutboxItem, "payload"> & { readonly payloadJson: string };

/**
 * The writes of one {@link MemoryOutbox.transaction}: enqueued items wait here until the work
 * resolves, and are dropped when it throws, like rows of a rolled-back SQL transaction.
 */
export class MemoryOutboxTransaction {
  /** @internal The staged items, applied in order at commit. */
  readonly staged: StoredItem[] = [];
}

/** What {@link MemoryOutbox.enqueue} writes through: the outbox itself, or one of its transactions. */
export type MemoryOutboxWriter = MemoryOutbox | MemoryOutboxTransaction;

/** Options of {@link MemoryOutbox}. */
export interface MemoryOutboxOptions {
  /** The time source (default the real clock); tests pass their own. */
  readonly clock?: Clock | undefined;
}

/**
 * The {@link Outbox} in memory, for tests and prototypes: one process, lost at exit. It keeps
 * the SQL outbox's contract, including transactions (`transaction(work)` stages the items
 * `work` enqueues through its writer and keeps them only if `work` resolves).
 */
export class MemoryOutbox implements Outbox<MemoryOutboxWriter> {
  readonly #items = new Map<number, StoredItem>();
  readonly #signal = new EnqueueSignal();
  readonly #clock: Clock;
  #nextId = 1;

  constructor(options: MemoryOutboxOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  /** Runs `work` with a writer whose enqueues are kept only if `work` resolves. */
  async transaction<T>(work: (writer: MemoryOutboxTransaction) => Promise<T>): Promise<T> {
    const transaction = new MemoryOutboxTransaction();
    const result = await work(transaction);
    for (const item of transaction.staged) {
      if (this.#insert(item)) this.#signal.notify(item.queue);
    }
    return result;
  }

  async enqueue(
    writer: MemoryOutboxWriter,
    queue: string,
    payload: unknown,
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    checkedName("queue", queue);
    const key = itemKey(options.key);
    const now = this.#clock();
    const item: StoredItem = {
      id: 0,
      queue,
      key,
      payloadJson: payloadJson(payload),
      status: "pending",
      attempts: 0,
      runAt: checkedTime(options.runAt ?? now),
      leaseUntil: null,
      leaseOwner: null,
      fairnessKey: fairnessKeyOf(options.fairnessKey),
      lastError: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    if (writer instanceof MemoryOutboxTransaction) {
      const taken =
        this.#findStored(queue, key) ??
        writer.staged.find((staged) => staged.queue === queue && staged.key === key);
      if (!taken) writer.staged.push(item);
      return { key, created: !taken };
    }
    const created = this.#insert(item);
    this.#signal.notify(queue);
    return { key, created };
  }

  async claim(queue: string, options: ClaimOptions): Promise<OutboxItem[]> {
    checkClaimOptions(options);
    const now = this.#clock();
    const excluded = new Set(options.excludeFairnessKeys);
    const due = [...this.#items.values()]
      .filter(
        (item) =>
          item.queue === queue &&
          item.status === "pending" &&
          item.runAt <= now &&
          (item.leaseUntil === null || item.leaseUntil <= now) &&
          (item.fairnessKey === null || !excluded.has(item.fairnessKey)),
      )
      .sort((a, b) => a.runAt - b.runAt || a.id - b.id)
      .slice(0, options.limit);
    return due.map((item) =>
      this.#replace(item, {
        attempts: item.attempts + 1,
        leaseOwner: options.owner,
        leaseUntil: now + options.leaseMs,
        updatedAt: now,
      }),
    );
  }

  async complete(item: OutboxItem): Promise<boolean> {
    const now = this.#clock();
    return this.#mark(item, { status: "done", leaseUntil: null, updatedAt: now, finishedAt: now });
  }

  async retry(item: OutboxItem, error: string, nextRunAt: number): Promise<boolean> {
    return this.#mark(item, {
      runAt: checkedTime(nextRunAt),
      leaseUntil: null,
      lastError: storableError(error),
      updatedAt: this.#clock(),
    });
  }

  async fail(item: OutboxItem, error: string): Promise<boolean> {
    const now = this.#clock();
    return this.#mark(item, {
      status: "failed",
      leaseUntil: null,
      lastError: storableError(error),
      updatedAt: now,
      finishedAt: now,
    });
  }

  async find(queue: string, key: string): Promise<OutboxItem | undefined> {
    const stored = this.#findStored(queue, key);
    return stored && publicItem(stored);
  }

  async list(queue: string, options: ListOptions): Promise<OutboxItem[]> {
    checkListOptions(options);
    return [...this.#items.values()]
      .filter((item) => item.queue === queue)
      .sort((a, b) => b.id - a.id)
      .slice(0, options.limit)
      .map(publicItem);
  }

  async prune(options: PruneOptions): Promise<number> {
    let deleted = 0;
    for (const [id, item] of this.#items) {
      if (
        item.status === "done" &&
        item.finishedAt !== null &&
        item.finishedAt < options.olderThan
      ) {
        this.#items.delete(id);
        deleted++;
      }
    }
    return deleted;
  }

  onEnqueue(listener: (queue: string) => void): () => void {
    return this.#signal.subscribe(listener);
  }

  /** Inserts `item` with a new id unless its queue holds its key; says whether it did. */
  #insert(item: StoredItem): boolean {
    if (this.#findStored(item.queue, item.key)) return false;
    const id = this.#nextId++;
    this.#items.set(id, { ...item, id });
    return true;
  }

  #findStored(queue: string, key: string): StoredItem | undefined {
    for (const item of this.#items.values()) {
      if (item.queue === queue && item.key === key) return item;
    }
    return undefined;
  }

  #replace(item: StoredItem, change: Partial<StoredItem>): OutboxItem {
    const next = { ...item, ...change };
    this.#items.set(item.id, next);
    return publicItem(next);
  }

  /** Applies `change` while `item`'s claim is the stored item's latest. */
  #mark(item: OutboxItem, change: Partial<StoredItem>): boolean {
    const stored = this.#items.get(item.id);
    if (
      stored?.status !== "pending" ||
      stored.leaseOwner === null ||
      stored.leaseOwner !== item.leaseOwner ||
      stored.attempts !== item.attempts
    ) {
      return false;
    }
    this.#replace(stored, change);
    return true;
  }
}

function publicItem({ payloadJson: json, ...item }: StoredItem): OutboxItem {
  return { ...item, payload: JSON.parse(json) };
}
