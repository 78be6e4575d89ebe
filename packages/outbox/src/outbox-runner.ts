import {
  type Clock,
  configurationError,
  requireFunctionOption,
  requireObjectOption,
  systemClock,
} from "@tessera/core";
import { forEachBounded } from "./bounded-concurrency.js";
import { isFinalDeliveryError } from "./final-delivery-error.js";
import type { Outbox, OutboxItem } from "./outbox.js";
import { checkedName } from "./outbox-input.js";
import { checkRetrySchedule, nextAttemptAt, type RetrySchedule } from "./retry-schedule.js";

/** Options of {@link runOutbox}. */
export interface OutboxRunnerOptions<Writer> {
  readonly outbox: Outbox<Writer>;
  /** The queue this runner drains. */
  readonly queue: string;
  /**
   * Does the item's work; resolves when it is done. A rejection is retried on `schedule`, a
   * {@link FinalDeliveryError} (or any error with `final: true`) fails the item at once; an
   * error with a `retryAfterMs` (a provider's `Retry-After`) is not retried sooner. Pass
   * `item.key` to the provider as its idempotency key: after a crash an item may be delivered
   * again, always with the same key.
   */
  readonly deliver: (item: OutboxItem) => Promise<void>;
  readonly schedule: RetrySchedule;
  /**
   * How long a claim holds an item (default 60 000 ms): longer than `deliver` can take for the
   * items of one batch, since once it runs out another runner may deliver the item again.
   */
  readonly leaseMs?: number;
  /** Items claimed at once (default: `concurrency`). */
  readonly batch?: number;
  /** Deliveries running at once, at most (default 4). */
  readonly concurrency?: number;
  /** This runner's name in the leases it takes (default a random one). */
  readonly owner?: string;
  /** How often a started runner looks for due items (default 1 000 ms). */
  readonly pollMs?: number;
  /** The time retries are counted from (default the real clock): give the outbox's. */
  readonly clock?: Clock;
  /** Picks the schedule's jitter (default `Math.random`). */
  readonly random?: () => number;
  /**
   * Receives a started runner's errors (the database failing); it goes on at the next poll.
   * Default: logged with `console.error`, since a swallowed error would hide a broken database.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * Told of each item given up on (a final error, or its schedule spent) once it is marked
   * `failed`, with the last error's message: where an app logs it or tells someone.
   */
  readonly onFailed?: (item: OutboxItem, error: string) => void;
}

/** What one {@link OutboxRunner.drain} did. */
export interface DrainReport {
  /** Items delivered and marked done. */
  readonly delivered: number;
  /** Items whose attempt failed, due again later. */
  readonly retried: number;
  /** Items given up on (a final error, or the schedule spent). */
  readonly failed: number;
  /** Items whose lease ran out and was taken by another runner before this one finished. */
  readonly superseded: number;
}

/** A runner of one queue (see {@link runOutbox}). */
export interface OutboxRunner {
  /**
   * Claims and delivers until nothing is due, then resolves with what it did: what a Workers
   * cron trigger, a Queues consumer or a one-shot command calls. Drains of one runner take
   * turns, so `concurrency` holds across them.
   * @throws the first error of the outbox itself (the deliveries' errors are the schedule's).
   */
  drain(): Promise<DrainReport>;
  /**
   * Drains now, then every `pollMs`, and at once after an `enqueue` on the same outbox object,
   * until {@link OutboxRunner.stop}: for a long-lived process. Does nothing when started.
   */
  start(): void;
  /** Stops claiming, and resolves once the deliveries under way have finished. */
  stop(): Promise<void>;
}

const DEFAULT_LEASE_MS = 60_000;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_POLL_MS = 1000;

/**
 * A runner for one queue of an outbox: claims due items with a lease, runs `deliver` on each
 * (at most `concurrency` at once), and marks each done, due again on the schedule, or failed.
 * Every mark is fenced by the claim, so a runner whose lease was taken over changes nothing.
 *
 * @throws {TypeError} naming a missing or wrong option.
 * @example
 * ```ts
 * import { MAIL_RETRY_SCHEDULE, MemoryOutbox, runOutbox } from "@tessera/outbox";
 *
 * const outbox = new MemoryOutbox();
 * const runner = runOutbox({
 *   outbox,
 *   queue: "mail",
 *   schedule: MAIL_RETRY_SCHEDULE,
 *   deliver: async (item) => console.log("sending", item.key, item.payload),
 * });
 * runner.start();
 * await outbox.enqueue(outbox, "mail", { to: "ada@example.com" });
 * await runner.stop();
 * ```
 */
export function runOutbox<Writer>(options: OutboxRunnerOptions<Writer>): OutboxRunner {
  const settings = checkedOptions(options);
  const { outbox, queue, deliver, schedule } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const onError = options.onError ?? ((error) => console.error("outbox runner failed:", error));
  const claim = { limit: settings.batch, leaseMs: settings.leaseMs, owner: settings.owner };

  async function attempt(item: OutboxItem, counts: Record<keyof DrainReport, number>) {
    let outcome: keyof DrainReport;
    try {
      await deliver(item);
      outcome = (await outbox.complete(item)) ? "delivered" : "superseded";
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const now = clock();
      const retryAt = isFinalDeliveryError(error)
        ? undefined
        : notBefore(nextAttemptAt(schedule, item.attempts, now, random), now, error);
      if (retryAt === undefined) {
        outcome = (await outbox.fail(item, message)) ? "failed" : "superseded";
        if (outcome === "failed") options.onFailed?.(item, message);
      } else {
        outcome = (await outbox.retry(item, message, retryAt)) ? "retried" : "superseded";
      }
    }
    counts[outcome]++;
  }

  async function drainUntil(stopping: () => boolean): Promise<DrainReport> {
    const counts = { delivered: 0, retried: 0, failed: 0, superseded: 0 };
    while (!stopping()) {
      const items = await outbox.claim(queue, claim);
      if (items.length === 0) break;
      await forEachBounded(items, settings.concurrency, (item) => attempt(item, counts));
    }
    return counts;
  }

  // Drains run one after another (a started runner's and those called directly).
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = (stopping: () => boolean): Promise<DrainReport> => {
    const run = turn.then(() => drainUntil(stopping));
    turn = run.catch(() => undefined);
    return run;
  };

  let loop: Promise<void> | undefined;
  let stopping = false;
  let woken = false;
  let wake: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  const rouse = () => {
    woken = true;
    wake?.();
  };

  return {
    drain: () => inTurn(() => false),
    start() {
      if (loop) return;
      stopping = false;
      unsubscribe = outbox.onEnqueue((name) => {
        if (name === queue) rouse();
      });
      loop = (async () => {
        while (!stopping) {
          woken = false;
          try {
            await inTurn(() => stopping);
          } catch (error) {
            onError(error);
          }
          if (stopping || woken) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, settings.pollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
      })();
    },
    async stop() {
      if (!loop) return;
      stopping = true;
      unsubscribe?.();
      rouse();
      await loop;
      loop = undefined;
    },
  };
}

/**
 * The schedule's next time, or later when the error asks to wait longer (`retryAfterMs`, as a
 * provider's `Retry-After` gives it): coming back sooner would only be refused again. A spent
 * schedule stays spent.
 */
function notBefore(scheduled: number | undefined, now: number, error: unknown) {
  if (scheduled === undefined) return undefined;
  const asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  const wait = typeof asked === "number" && Number.isFinite(asked) && asked > 0 ? asked : 0;
  return Math.max(scheduled, now + Math.ceil(wait));
}

interface RunnerSettings {
  readonly leaseMs: number;
  readonly batch: number;
  readonly concurrency: number;
  readonly owner: string;
  readonly pollMs: number;
}

function checkedOptions<Writer>(options: OutboxRunnerOptions<Writer>): RunnerSettings {
  const fn = "runOutbox";
  requireObjectOption(
    fn,
    options,
    "outbox",
    ["claim", "complete", "retry", "fail", "onEnqueue"],
    "pass a SqlOutbox or a MemoryOutbox",
  );
  requireFunctionOption(fn, options, "deliver", "pass an async function that does an item's work");
  if (typeof options.queue !== "string") {
    throw configurationError(fn, "queue", "is missing", 'pass the queue\'s name, e.g. "mail"');
  }
  checkedName("queue", options.queue);
  if (!Array.isArray(options.schedule?.delaysMs)) {
    throw configurationError(
      fn,
      "schedule",
      "is missing",
      "pass a RetrySchedule, e.g. MAIL_RETRY_SCHEDULE",
    );
  }
  checkRetrySchedule(options.schedule);
  const concurrency = positiveInteger(
    fn,
    "concurrency",
    options.concurrency ?? DEFAULT_CONCURRENCY,
  );
  return {
    leaseMs: positiveInteger(fn, "leaseMs", options.leaseMs ?? DEFAULT_LEASE_MS),
    batch: positiveInteger(fn, "batch", options.batch ?? concurrency),
    concurrency,
    owner: options.owner ?? `runner-${crypto.randomUUID()}`,
    pollMs: positiveInteger(fn, "pollMs", options.pollMs ?? DEFAULT_POLL_MS),
  };
}

function positiveInteger(fn: string, name: string, value: number): number {
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw configurationError(fn, name, "is not a positive integer", `pass a whole number above 0`);
}
