import {
  type Clock,
  configurationError,
  requireFunctionOption,
  requireObjectOption,
  systemClock,
} from "@tessera/core";
import { withDeadline } from "./attempt-deadline.js";
import { FairShare } from "./fair-share.js";
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
   * error with a `retryAfterMs` (a provider's `Retry-After`) is not retried sooner, up to the
   * schedule's longest step. Pass `item.key` to the provider as its idempotency key: after a
   * crash an item may be delivered again, always with the same key. `signal` aborts at the
   * attempt's deadline (`attemptTimeoutMs`): pass it to the request, so that the connection,
   * the headers and the answer's body all end there.
   */
  readonly deliver: (item: OutboxItem, signal: AbortSignal) => Promise<void>;
  readonly schedule: RetrySchedule;
  /**
   * How long a claim holds an item (default 60 000 ms): longer than `attemptTimeoutMs`, since
   * once it runs out another runner may deliver the item again.
   */
  readonly leaseMs?: number | undefined;
  /**
   * One attempt's deadline, answer included (default half of `leaseMs`): then its signal
   * aborts, the attempt counts as failed (retried on the schedule), and its slot takes the next
   * item, whether or not `deliver` has stopped. Shorter than `leaseMs`.
   */
  readonly attemptTimeoutMs?: number | undefined;
  /** @deprecated Ignored: each free slot claims the next due item itself. */
  readonly batch?: number | undefined;
  /** Deliveries running at once, at most (default 4). */
  readonly concurrency?: number | undefined;
  /**
   * Deliveries of one fairness key (a mail's recipient, a webhook's owner) running at once, at
   * most (default half of `concurrency`, at least 1): one key's slow or hanging deliveries
   * cannot hold the slots every other key needs.
   */
  readonly keyConcurrency?: number | undefined;
  /** This runner's name in the leases it takes (default a random one). */
  readonly owner?: string | undefined;
  /**
   * How often a started runner looks for due items (default 1 000 ms); also how often a drain
   * with deliveries under way and a free slot looks again for items other processes enqueued.
   */
  readonly pollMs?: number | undefined;
  /** The time retries are counted from (default the real clock): give the outbox's. */
  readonly clock?: Clock | undefined;
  /** Picks the schedule's jitter (default `Math.random`). */
  readonly random?: (() => number) | undefined;
  /**
   * Receives a started runner's errors (the database failing); it goes on at the next poll.
   * Default: logged with `console.error`, since a swallowed error would hide a broken database.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
  /**
   * Told of each item given up on (a final error, or its schedule spent) once it is marked
   * `failed`, with the last error's message: where an app logs it or tells someone.
   */
  readonly onFailed?: ((item: OutboxItem, error: string) => void) | undefined;
  /**
   * Gets one line for each wait an error asked for beyond the schedule's longest step, which
   * the runner shortens to that step (default `console.warn`).
   */
  readonly log?: ((line: string) => void) | undefined;
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
 * A runner for one queue of an outbox: each free slot (at most `concurrency`) claims the next
 * due item whose fairness key has not used its share, runs `deliver` on it under one deadline,
 * and marks it done, due again on the schedule, or failed. Every mark is fenced by the claim,
 * so a runner whose lease was taken over changes nothing.
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
 *   deliver: async (item, signal) => console.log("sending", item.key, item.payload, signal.aborted),
 * });
 * runner.start();
 * await outbox.enqueue(outbox, "mail", { to: "ada@example.com" }, { fairnessKey: "ada@example.com" });
 * await runner.stop();
 * ```
 */
export function runOutbox<Writer>(options: OutboxRunnerOptions<Writer>): OutboxRunner {
  const settings = checkedOptions(options);
  const { outbox, queue, deliver, schedule } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const onError = options.onError ?? ((error) => console.error("outbox runner failed:", error));
  const log = options.log ?? console.warn;
  const longestWait = Math.max(0, ...schedule.delaysMs);
  // One item per claim: each free slot takes the next due item itself.
  const claim = { limit: 1, leaseMs: settings.leaseMs, owner: settings.owner };

  async function attempt(item: OutboxItem): Promise<keyof DrainReport> {
    try {
      await withDeadline(settings.attemptTimeoutMs, (signal) => deliver(item, signal));
      return (await outbox.complete(item)) ? "delivered" : "superseded";
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const now = clock();
      const scheduled = isFinalDeliveryError(error)
        ? undefined
        : nextAttemptAt(schedule, item.attempts, now, random);
      const retryAt = scheduled === undefined ? undefined : notBefore(item, scheduled, now, error);
      if (retryAt === undefined) {
        const failed = await outbox.fail(item, message);
        if (failed) options.onFailed?.(item, message);
        return failed ? "failed" : "superseded";
      }
      return (await outbox.retry(item, message, retryAt)) ? "retried" : "superseded";
    }
  }

  /**
   * The schedule's next time, or later when the error asks to wait longer (`retryAfterMs`, as
   * a provider's `Retry-After` gives it): coming back sooner would only be refused again. A
   * wait longer than the schedule's longest step is cut to it and logged, so a provider asking
   * for years cannot park an item: the attempt counts as failed, and the schedule still ends.
   */
  function notBefore(item: OutboxItem, scheduled: number, now: number, error: unknown) {
    const asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
    if (typeof asked !== "number" || !(asked > 0)) return scheduled;
    if (asked > longestWait) {
      log(
        `Outbox item ${item.id} of "${queue}" (attempt ${item.attempts}) was asked to wait ${asked} ms; waiting ${longestWait} ms, the retry schedule's longest step`,
      );
    }
    return Math.max(scheduled, now + Math.ceil(Math.min(asked, longestWait)));
  }

  /**
   * Keeps every slot busy until nothing is due: a free slot claims the next item at once,
   * rather than after the slowest delivery of a batch, and claims again when a delivery ends,
   * something is enqueued on this outbox object, or `pollMs` passes (items of other processes).
   */
  async function drainUntil(stopping: () => boolean): Promise<DrainReport> {
    const counts = { delivered: 0, retried: 0, failed: 0, superseded: 0 };
    const running = new Set<Promise<void>>();
    const shares = new FairShare(settings.keyConcurrency);
    let broken: { error: unknown } | undefined;
    const start = (item: OutboxItem) => {
      shares.take(item.fairnessKey);
      const run = attempt(item).then(
        (outcome) => {
          counts[outcome]++;
        },
        (error: unknown) => {
          // The outbox itself failed to mark the item: stop claiming, and report it.
          broken ??= { error };
        },
      );
      const tracked = run.finally(() => {
        shares.release(item.fairnessKey);
        running.delete(tracked);
      });
      running.add(tracked);
    };
    try {
      while (!stopping() && !broken) {
        if (running.size < settings.concurrency) {
          const [item] = await outbox.claim(queue, {
            ...claim,
            excludeFairnessKeys: shares.used(),
          });
          if (item) {
            start(item);
            continue;
          }
        }
        if (running.size === 0) break;
        await changed([...running]);
      }
    } finally {
      await Promise.all(running);
    }
    if (broken) throw broken.error;
    return counts;
  }

  // Wakes the drains waiting on their deliveries when stop() is called.
  const nudges = new Set<() => void>();
  const nudge = () => {
    for (const wake of nudges) wake();
  };

  /** Resolves when one of `running` ends, a nudge comes, or `pollMs` passes. */
  async function changed(running: readonly Promise<void>[]): Promise<void> {
    let wake!: () => void;
    const nudged = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const timer = setTimeout(wake, settings.pollMs);
    nudges.add(wake);
    const unsubscribe = outbox.onEnqueue((name) => {
      if (name === queue) wake();
    });
    try {
      await Promise.race([...running, nudged]);
    } finally {
      clearTimeout(timer);
      nudges.delete(wake);
      unsubscribe();
    }
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
      nudge();
      await loop;
      loop = undefined;
    },
  };
}

interface RunnerSettings {
  readonly leaseMs: number;
  readonly attemptTimeoutMs: number;
  readonly concurrency: number;
  readonly keyConcurrency: number;
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
  const leaseMs = positiveInteger(fn, "leaseMs", options.leaseMs ?? DEFAULT_LEASE_MS);
  const attemptTimeoutMs = positiveInteger(
    fn,
    "attemptTimeoutMs",
    options.attemptTimeoutMs ?? Math.max(1, Math.floor(leaseMs / 2)),
  );
  if (attemptTimeoutMs >= leaseMs) {
    throw configurationError(
      fn,
      "attemptTimeoutMs",
      "is not shorter than `leaseMs`",
      "a lease must outlast the attempt it covers: shorten the attempt or lengthen the lease",
    );
  }
  return {
    leaseMs,
    attemptTimeoutMs,
    concurrency,
    keyConcurrency: positiveInteger(
      fn,
      "keyConcurrency",
      options.keyConcurrency ?? Math.max(1, Math.floor(concurrency / 2)),
    ),
    owner: options.owner ?? `runner-${crypto.randomUUID()}`,
    pollMs: positiveInteger(fn, "pollMs", options.pollMs ?? DEFAULT_POLL_MS),
  };
}

function positiveInteger(fn: string, name: string, value: number): number {
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw configurationError(fn, name, "is not a positive integer", `pass a whole number above 0`);
}
