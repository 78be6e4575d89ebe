import type { Clock } from "@tessera/core";
import {
  FinalDeliveryError,
  type Outbox,
  type OutboxItem,
  type RetrySchedule,
} from "@tessera/outbox";
import type { OutboundStore, StoredEndpoint } from "./outbound-store.js";
import { laterDeliveryKey, type QueuedDelivery, WEBHOOK_QUEUE } from "./webhook-queue.js";

/**
 * How far ahead a delivery to a rate-limited endpoint takes its slot and waits for it, holding
 * its sender's slot: 1 s. A delivery whose turn is further away waits in the outbox instead.
 */
export const RATE_LIMIT_WAIT_MS = 1000;

/** What {@link paceDelivery} works with: the sender's parts and the delivery at hand. */
export interface PacedDelivery<Writer> {
  readonly store: OutboundStore<Writer>;
  readonly outbox: Outbox<Writer>;
  readonly writer: Writer;
  readonly clock: Clock;
  readonly item: OutboxItem;
  readonly queued: QueuedDelivery;
  readonly endpoint: StoredEndpoint;
  readonly signal: AbortSignal;
}

/**
 * Keeps a delivery to its endpoint's rate limit: true once its turn has come (now, or after a
 * wait of at most {@link RATE_LIMIT_WAIT_MS}); false when it was put back in the outbox, as a
 * new item due at its place in the endpoint's line, carrying the attempts made so far. The
 * caller then ends the item without an attempt: nothing was sent, and nothing failed.
 * @throws {FinalDeliveryError} when the endpoint is gone.
 */
export async function paceDelivery<Writer>(delivery: PacedDelivery<Writer>): Promise<boolean> {
  const { endpoint, item, queued } = delivery;
  if (endpoint.rateLimit === null) return true;
  const slot = await delivery.store.takeDeliverySlot(endpoint.id, {
    perSecond: endpoint.rateLimit,
    now: delivery.clock(),
    reachMs: RATE_LIMIT_WAIT_MS,
  });
  if (!slot) throw new FinalDeliveryError(`endpoint ${endpoint.id} is deleted`);
  if (slot.taken) {
    await waitUntil(slot.sendAt, delivery.clock, delivery.signal);
    return true;
  }
  const later: QueuedDelivery = {
    message_id: queued.message_id,
    endpoint_id: queued.endpoint_id,
    attempts_before: (queued.attempts_before ?? 0) + item.attempts - 1,
  };
  await delivery.outbox.enqueue(delivery.writer, WEBHOOK_QUEUE, later, {
    key: laterDeliveryKey(item.key),
    runAt: slot.comeBackAt,
    ...(item.fairnessKey === null ? {} : { fairnessKey: item.fairnessKey }),
  });
  return false;
}

/**
 * The error a failed attempt ends its item with. The runner counts the claims of one item, so
 * an item a delivery waited in after earlier attempts asks it for the schedule's wait after
 * the delivery's own attempt number (`retryAfterMs`), and is failed once that schedule is spent:
 * waiting for a rate limit neither restarts nor shortens the retries.
 */
export function failedAttemptError(
  why: string,
  queued: QueuedDelivery,
  attempt: number,
  schedule: RetrySchedule,
): Error {
  if (!queued.attempts_before) return new Error(why);
  const wait = schedule.delaysMs[attempt - 1];
  if (wait === undefined) return new FinalDeliveryError(why);
  return Object.assign(new Error(why), { retryAfterMs: wait });
}

/** Resolves at `time` by `clock` (never before), or rejects when `signal` aborts first. */
function waitUntil(time: number, clock: Clock, signal: AbortSignal): Promise<void> {
  const ms = Math.ceil(time - clock());
  if (ms <= 0) return Promise.resolve();
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    signal.addEventListener("abort", aborted, { once: true });
  });
}
