import { type Clock, requireFunctionOption, requireObjectOption, systemClock } from "@tessera/core";
import type { KeyRing } from "@tessera/crypto";
import {
  FinalDeliveryError,
  type OutboxItem,
  type OutboxRunner,
  type OutboxRunnerOptions,
  type RetrySchedule,
  runOutbox,
  WEBHOOK_RETRY_SCHEDULE,
} from "@tessera/outbox";
import { signStandardWebhook } from "@tessera/signer";
import { failedAttemptError, paceDelivery } from "./delivery-pacing.js";
import { openEndpointSecret } from "./endpoint-secret.js";
import type { OutboundOutcome, OutboundPost } from "./outbound-request.js";
import type { OutboundStore, StoredEndpoint, StoredMessage } from "./outbound-store.js";
import { openEndpointHeaders } from "./sealed-endpoint-headers.js";
import { endpointView, type WebhookEndpoint } from "./webhook-endpoint.js";
import { parseQueuedDelivery, WEBHOOK_QUEUE } from "./webhook-queue.js";

/** Options of {@link webhookSender}: those of `runOutbox`, the queue and the delivery aside. */
export interface WebhookSenderOptions<Writer>
  extends Omit<OutboxRunnerOptions<Writer>, "queue" | "deliver" | "schedule"> {
  readonly store: OutboundStore<Writer>;
  /**
   * What deliveries over their endpoint's rate limit are put back in the outbox through: the
   * database the outbox is on (the `MemoryOutbox` itself in memory).
   */
  readonly writer: Writer;
  /** The keys the endpoint secrets and headers are sealed with: `outboundSecretKeys(secretKeyBase)`. */
  readonly secretKeys: KeyRing;
  /**
   * The guarded request: `nodeGuardedFetch(policy)` on Node, `guardedFetch(...)` elsewhere.
   * Its own timeout (15 s) bounds the request, answer included: keep the runner's
   * `attemptTimeoutMs` (half of `leaseMs`, 30 s by default) longer, so the attempt ends with
   * the request's outcome logged rather than at the runner's deadline. It is only ever asked to
   * POST, so a fetch of one's own may handle `OutboundPost` alone.
   */
  readonly fetch: (request: OutboundPost) => Promise<OutboundOutcome>;
  /** When to try again (default svix's: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  readonly schedule?: RetrySchedule | undefined;
  /** How long every delivery to an endpoint may fail before it is disabled (default 5 days). */
  readonly disableAfterMs?: number | undefined;
  /**
   * Told once when an endpoint is disabled for failing `disableAfterMs`: tell its owner (the
   * example app mails them). Its errors go to `onError`, never to the delivery.
   */
  readonly onEndpointDisabled?: ((endpoint: WebhookEndpoint) => void | Promise<void>) | undefined;
}

/** The default time every delivery to an endpoint may fail before it is disabled: 5 days. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * The runner of the outbox's `webhook` queue: for each item, loads its message and endpoint,
 * POSTs `{"type","timestamp","data"}` signed the Standard Webhooks way (`webhook-id` the
 * message id; both secrets for 24 h after a rotation), with the endpoint's custom headers,
 * through the guarded `fetch`, and logs the attempt. A delivery to an endpoint with a rate
 * limit waits for its turn (up to a second), or goes back to the outbox, due at its place in
 * the endpoint's line: no attempt, no failure, and the same attempt numbers and retry schedule
 * after it (the runner's report counts such an item `delivered`: it is done, another holds the
 * delivery). A 2xx is delivered; any other answer, a refusal, a timeout or a network error is a
 * failed attempt, tried again on the schedule and then failed. An endpoint whose deliveries
 * have all failed for `disableAfterMs` is disabled and `onEndpointDisabled` told; deliveries to
 * a disabled or deleted endpoint are dropped without a request (a test event excepted: it goes
 * to its endpoint enabled or not). Each delivery's fairness key
 * is its endpoint's owner (see `OutboundWebhooks.send`): one owner's slow or hanging receivers
 * take at most their share of the sender's slots. `start()` it with the process
 * and `await stop()` before closing the database, or `drain()` from a cron trigger.
 *
 * @throws {TypeError} naming a missing option.
 */
export function webhookSender<Writer>(options: WebhookSenderOptions<Writer>): OutboxRunner {
  const fn = "webhookSender";
  requireObjectOption(
    fn,
    options,
    "store",
    ["findEndpointById", "insertAttempt"],
    "pass the SqlOutboundStore",
  );
  requireObjectOption(fn, options, "writer", [], "pass the database the outbox is on");
  requireObjectOption(fn, options, "secretKeys", [], "pass outboundSecretKeys(secretKeyBase)");
  requireFunctionOption(fn, options, "fetch", "pass nodeGuardedFetch(policy) or guardedFetch(...)");
  const {
    store,
    writer,
    secretKeys,
    fetch,
    schedule = WEBHOOK_RETRY_SCHEDULE,
    disableAfterMs = DISABLE_AFTER_MS,
    onEndpointDisabled,
    ...runner
  } = options;
  const clock: Clock = runner.clock ?? systemClock;
  const onError = runner.onError ?? ((error) => console.error("webhook sender failed:", error));

  async function deliver(item: OutboxItem, signal: AbortSignal): Promise<void> {
    const queued = parseQueuedDelivery(item.payload);
    if (!queued) throw new FinalDeliveryError("the outbox item is not a webhook delivery");
    const endpoint = await store.findEndpointById(queued.endpoint_id);
    const message = endpoint && (await store.findMessageById(queued.message_id));
    // A test event goes to its endpoint even while it is disabled: its owner asked for it.
    if (!endpoint || (endpoint.disabledAt !== null && message?.addressedTo !== endpoint.id)) {
      throw new FinalDeliveryError(`endpoint ${queued.endpoint_id} is deleted or disabled`);
    }
    if (!message) throw new FinalDeliveryError(`message ${queued.message_id} is deleted`);
    // The loads above count against the attempt's deadline: past it, send nothing more.
    signal.throwIfAborted();
    // Signed before its turn, so that the request leaves as its turn comes (the timestamp may be
    // up to a second early: receivers allow minutes).
    const headers = await deliveryHeaders(endpoint, message, clock());
    const { outbox } = runner;
    const paced = { store, outbox, writer, clock, item, queued, endpoint, signal };
    if (!(await paceDelivery(paced))) return;
    const now = clock();
    const outcome = await fetch({ url: endpoint.url, headers, body: deliveryBody(message) });
    const succeeded = outcome.kind === "answered" && outcome.status >= 200 && outcome.status < 300;
    const attempt = (queued.attempts_before ?? 0) + item.attempts;
    await store.insertAttempt({
      messageId: message.id,
      endpointId: endpoint.id,
      attempt,
      status: succeeded ? "succeeded" : "failed",
      responseStatus: outcome.kind === "answered" ? outcome.status : null,
      durationMs: outcome.durationMs,
      response: outcome.kind === "answered" ? outcome.answer : outcome.message,
      createdAt: now,
    });
    if (succeeded) {
      await store.noteDeliverySucceeded(endpoint.id);
      return;
    }
    const why = failureText(outcome);
    if (await store.noteDeliveryFailed(endpoint.id, now, now - disableAfterMs)) {
      await tellDisabled(endpoint, now);
      throw new FinalDeliveryError(
        `${why}; the endpoint is disabled after failing since ${new Date(endpoint.failingSince ?? now).toISOString()}`,
      );
    }
    throw failedAttemptError(why, queued, attempt, schedule);
  }

  async function deliveryHeaders(endpoint: StoredEndpoint, message: StoredMessage, now: number) {
    const secrets = [await openEndpointSecret(secretKeys, endpoint.id, endpoint.sealedSecret)];
    if (
      endpoint.previousSealedSecret !== null &&
      endpoint.previousSecretUntil !== null &&
      now < endpoint.previousSecretUntil
    ) {
      secrets.push(
        await openEndpointSecret(secretKeys, endpoint.id, endpoint.previousSealedSecret),
      );
    }
    const signed = signStandardWebhook({
      id: message.id,
      body: deliveryBody(message),
      secret: secrets,
      timestamp: Math.floor(now / 1000),
    });
    // The custom headers first: none can take a name of the sender's (see isReservedHeaderName).
    const custom = await openEndpointHeaders(secretKeys, endpoint.id, endpoint.headers);
    return {
      ...custom,
      ...signed,
      "content-type": "application/json",
      "user-agent": "Tessera-Webhooks/1",
    };
  }

  async function tellDisabled(endpoint: StoredEndpoint, now: number) {
    try {
      await onEndpointDisabled?.(endpointView({ ...endpoint, disabledAt: now, updatedAt: now }));
    } catch (error) {
      onError(error);
    }
  }

  return runOutbox({ ...runner, queue: WEBHOOK_QUEUE, schedule, deliver });
}

/**
 * The body of every delivery of `message`: `{"type","timestamp","data"}`, the timestamp being
 * when the event happened (ISO 8601), `data` the payload exactly as stored. The same bytes on
 * every attempt.
 */
export function deliveryBody(message: StoredMessage): string {
  const timestamp = new Date(message.createdAt).toISOString();
  return `{"type":${JSON.stringify(message.eventType)},"timestamp":"${timestamp}","data":${message.payload}}`;
}

function failureText(outcome: OutboundOutcome): string {
  if (outcome.kind === "answered") return `the endpoint answered ${outcome.status}`;
  return `${outcome.kind}: ${outcome.message}`;
}
