import { type Clock, requireObjectOption, systemClock } from "@tessera/core";
import { type KeyRing, randomToken } from "@tessera/crypto";
import type { Outbox } from "@tessera/outbox";
import { checkEndpointInput, type EndpointInput, type FieldErrors } from "./endpoint-input.js";
import { newEndpointSecret, sealEndpointSecret } from "./endpoint-secret.js";
import { isEventTypeName } from "./event-types.js";
import { newEndpointId, newMessageId } from "./outbound-ids.js";
import type { OutboundPolicy, ResolveHost } from "./outbound-policy.js";
import type {
  DeliveryState,
  LoggedAttempt,
  OutboundStore,
  StoredEndpoint,
  UnsubscribedOwner,
} from "./outbound-store.js";
import { sealEndpointHeaders } from "./sealed-endpoint-headers.js";
import { endpointView, type WebhookEndpoint } from "./webhook-endpoint.js";
import {
  deliveryFairnessKey,
  deliveryKey,
  type QueuedDelivery,
  WEBHOOK_QUEUE,
} from "./webhook-queue.js";

/** Options of {@link OutboundWebhooks}. */
export interface OutboundWebhooksOptions<Writer> {
  readonly store: OutboundStore<Writer>;
  /** Where deliveries wait: the same database as `store`, so a send is one transaction. */
  readonly outbox: Outbox<Writer>;
  /** What replays are written through: the database itself (or the memory outbox). */
  readonly writer: Writer;
  /** Encrypt endpoint secrets at rest: `outboundSecretKeys(secretKeyBase)`. */
  readonly secretKeys: KeyRing;
  /** The SSRF rules for registered URLs (the sender's fetch applies them again). */
  readonly policy?: OutboundPolicy | undefined;
  /** Resolves a registered URL's host, so a name resolving inside is refused at once. */
  readonly resolveHost?: ResolveHost | undefined;
  /**
   * The most endpoints an owner may have, enabled or not (default
   * {@link MAXIMUM_ENDPOINTS_PER_OWNER}): each is one more request for every event and replay.
   */
  readonly maximumEndpointsPerOwner?: number | undefined;
  readonly clock?: Clock | undefined;
}

/** What {@link OutboundWebhooks.createEndpoint} answers when the owner has no room left. */
export interface EndpointLimitReached {
  readonly ok: false;
  /** The maximum the owner already has. */
  readonly endpointLimit: number;
}

/** An endpoint just created or re-keyed, with the secret shown this once. */
export interface EndpointWithSecret {
  readonly endpoint: WebhookEndpoint;
  /** `whsec_…`: shown only now; afterwards only rotation gives a new one. */
  readonly secret: string;
}

/** What {@link OutboundWebhooks.sendTestEvent} sent. */
export interface TestEventSent {
  /** The test message (`msg_…`): the `webhook-id` of its deliveries, replayable as any. */
  readonly messageId: string;
}

/** What a replay did: deliveries added, and endpoints skipped as one was still pending. */
export interface ReplayOutcome {
  /** New deliveries (attempt 1, same `webhook-id`). */
  readonly queued: number;
  /** Endpoints that already had a delivery of the message waiting: none was added for them. */
  readonly alreadyPending: number;
}

/** How long the previous secret still signs after a rotation: 24 hours. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 60 * 60 * 1000;
/** The default most endpoints one owner may have: 20. */
export const MAXIMUM_ENDPOINTS_PER_OWNER = 20;
/** The largest payload `send` takes, as JSON: 256 KiB. */
export const MAXIMUM_PAYLOAD_BYTES = 256 * 1024;
const REPLAY_BATCH = 1000;

/**
 * Outbound webhooks for one app: owners' endpoints (created, listed, changed, rotated,
 * deleted, always scoped by owner), `send` (a message and one outbox item per subscribed
 * endpoint, written through the caller's writer), replay and the attempt log. Deliveries are
 * made by {@link webhookSender}.
 *
 * @throws {TypeError} naming a missing option.
 */
export class OutboundWebhooks<Writer> {
  readonly #store: OutboundStore<Writer>;
  readonly #outbox: Outbox<Writer>;
  readonly #writer: Writer;
  readonly #keys: KeyRing;
  readonly #policy: OutboundPolicy;
  readonly #resolveHost: ResolveHost | undefined;
  readonly #maximumEndpoints: number;
  readonly #clock: Clock;

  constructor(options: OutboundWebhooksOptions<Writer>) {
    const fn = "OutboundWebhooks";
    requireObjectOption(
      fn,
      options,
      "store",
      ["insertEndpoint", "insertMessage"],
      "pass a SqlOutboundStore",
    );
    requireObjectOption(fn, options, "outbox", ["enqueue"], "pass the app's SqlOutbox");
    requireObjectOption(fn, options, "writer", [], "pass the database the outbox is on");
    requireObjectOption(fn, options, "secretKeys", [], "pass outboundSecretKeys(secretKeyBase)");
    this.#store = options.store;
    this.#outbox = options.outbox;
    this.#writer = options.writer;
    this.#keys = options.secretKeys;
    this.#policy = options.policy ?? {};
    this.#resolveHost = options.resolveHost;
    this.#maximumEndpoints = options.maximumEndpointsPerOwner ?? MAXIMUM_ENDPOINTS_PER_OWNER;
    if (!Number.isInteger(this.#maximumEndpoints) || this.#maximumEndpoints < 1) {
      throw new RangeError(`${fn}: maximumEndpointsPerOwner must be a positive integer`);
    }
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Creates an endpoint for `ownerId`: field errors (422) for a bad or refused `url`, …, or
   * {@link EndpointLimitReached} when the owner already has the maximum.
   */
  async createEndpoint(
    ownerId: number,
    input: EndpointInput,
  ): Promise<
    | { ok: true; value: EndpointWithSecret }
    | { ok: false; fields: FieldErrors }
    | EndpointLimitReached
  > {
    const checked = await checkEndpointInput(input, true, this.#policy, this.#resolveHost);
    if (!checked.ok) return checked;
    const id = newEndpointId();
    const secret = newEndpointSecret();
    const now = this.#clock();
    const stored: StoredEndpoint = {
      id,
      ownerId,
      url: checked.value.url as string,
      eventTypes: checked.value.eventTypes ?? [],
      description: checked.value.description ?? "",
      sealedSecret: await sealEndpointSecret(this.#keys, id, secret),
      previousSealedSecret: null,
      previousSecretUntil: null,
      disabledAt: checked.value.enabled === false ? now : null,
      failingSince: null,
      headers: await sealEndpointHeaders(this.#keys, id, checked.value.headers ?? {}),
      rateLimit: checked.value.rateLimit ?? null,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.#store.insertEndpoint(stored, this.#maximumEndpoints))) {
      return { ok: false, endpointLimit: this.#maximumEndpoints };
    }
    return { ok: true, value: { endpoint: endpointView(stored), secret } };
  }

  /** The owner's endpoints, newest first. */
  async listEndpoints(ownerId: number): Promise<WebhookEndpoint[]> {
    return (await this.#store.listEndpoints(ownerId)).map(endpointView);
  }

  /** The owner's endpoint, or undefined (another owner's is not found either). */
  async findEndpoint(ownerId: number, id: string): Promise<WebhookEndpoint | undefined> {
    const endpoint = await this.#store.findEndpoint(ownerId, id);
    return endpoint && endpointView(endpoint);
  }

  /** Changes the owner's endpoint: `undefined` when it is not theirs, else field errors or it. */
  async updateEndpoint(
    ownerId: number,
    id: string,
    input: EndpointInput,
  ): Promise<
    { ok: true; value: WebhookEndpoint } | { ok: false; fields: FieldErrors } | undefined
  > {
    const current = await this.#store.findEndpoint(ownerId, id);
    if (!current) return undefined;
    const checked = await checkEndpointInput(input, false, this.#policy, this.#resolveHost);
    if (!checked.ok) return checked;
    const { url, eventTypes, description, enabled, headers, rateLimit } = checked.value;
    const now = this.#clock();
    const enabling = enabled === true && current.disabledAt !== null;
    const disabling = enabled === false && current.disabledAt === null;
    const updated = await this.#store.updateEndpoint(
      ownerId,
      id,
      {
        ...(url === undefined ? {} : { url }),
        ...(eventTypes === undefined ? {} : { eventTypes }),
        ...(description === undefined ? {} : { description }),
        ...(enabling ? { disabledAt: null } : disabling ? { disabledAt: now } : {}),
        ...(headers === undefined
          ? {}
          : { headers: await sealEndpointHeaders(this.#keys, id, headers) }),
        ...(rateLimit === undefined ? {} : { rateLimit }),
      },
      now,
    );
    return updated && { ok: true, value: endpointView(updated) };
  }

  /** Deletes the owner's endpoint and its attempts; false when it is not theirs. */
  deleteEndpoint(ownerId: number, id: string): Promise<boolean> {
    return this.#store.deleteEndpoint(ownerId, id);
  }

  /**
   * Gives the owner's endpoint a new secret, shown once; for 24 hours deliveries are signed
   * with the new and the previous one, so the receiver can switch without losing any.
   */
  async rotateSecret(ownerId: number, id: string): Promise<EndpointWithSecret | undefined> {
    if (!(await this.#store.findEndpoint(ownerId, id))) return undefined;
    const secret = newEndpointSecret();
    const now = this.#clock();
    const rotated = await this.#store.rotateEndpointSecret(
      ownerId,
      id,
      await sealEndpointSecret(this.#keys, id, secret),
      now + PREVIOUS_SECRET_VALIDITY_MS,
      now,
    );
    return rotated && { endpoint: endpointView(rotated), secret };
  }

  /**
   * Stores a message of `type` for `ownerId` and one delivery per enabled endpoint of theirs
   * that takes the type, all through `writer`: pass the caller's transaction, and the message
   * is kept only with the caller's own write. Returns the message id (`msg_…`) and how many
   * endpoints it goes to. When no endpoint takes it, nothing is stored and the id is undefined:
   * an app whose users mostly have no endpoints pays one query per event, not a row.
   * `payload` may be a function that makes it, called only when an endpoint takes the event,
   * so that such a write does not build a payload for nobody either.
   * @throws {RangeError} for a type that is not an event type name, or, when an endpoint takes
   * it, a payload with no JSON form or over {@link MAXIMUM_PAYLOAD_BYTES} as JSON.
   */
  async send(
    writer: Writer,
    ownerId: number,
    type: string,
    payload: unknown,
  ): Promise<{ messageId: string | undefined; endpoints: number }> {
    checkEventType(type);
    const endpointIds = this.#store.subscribedEndpointIds
      ? await this.#store.subscribedEndpointIds(writer, ownerId, type)
      : (await this.#store.subscribedEndpoints(writer, ownerId, type)).map(({ id }) => id);
    if (endpointIds.length === 0) return { messageId: undefined, endpoints: 0 };
    // A function has no JSON form of its own: one given is the payload's maker.
    const json = payloadJson(typeof payload === "function" ? payload() : payload);
    const now = this.#clock();
    const id = newMessageId(now);
    await this.#store.insertMessage(writer, {
      id,
      ownerId,
      eventType: type,
      payload: json,
      createdAt: now,
    });
    for (const endpointId of endpointIds) await this.#enqueue(writer, ownerId, id, endpointId);
    return { messageId: id, endpoints: endpointIds.length };
  }

  /**
   * For a write that would {@link send} an event of `type` for `ownerId` in its transaction:
   * the store's word, read through `reader` outside any transaction, that no endpoint takes
   * it, so the write may go without a transaction and without the event. Once the write is
   * done, `stillUnsubscribed()` must say true; false means an endpoint may have come meanwhile,
   * and the event is to be sent after all, with `send` in a transaction of its own (the
   * records' `RecordEventWrites` does both). Undefined when the store cannot tell cheaply
   * (`SqlOutboundStore` with `cacheSubscriptions` can, on SQLite), the type is not an event
   * type name, or an endpoint takes it: then write and `send` in one transaction.
   */
  async unsubscribed(
    reader: Writer,
    ownerId: number,
    type: string,
  ): Promise<UnsubscribedOwner | undefined> {
    if (!this.#store.unsubscribed || !isEventTypeName(type)) return undefined;
    return this.#store.unsubscribed(reader, ownerId, type);
  }

  /**
   * Sends a test event: a message of `type` with `data` to the owner's endpoint alone, whatever
   * its event filter and even while it is disabled (as svix does: the owner asked for it, e.g.
   * to check a receiver before enabling it again), by the normal path: signed, with its custom
   * headers, paced by its rate limit, retried, logged as attempts, replayable (to that endpoint
   * only). Undefined when the endpoint is not the owner's.
   * @throws {RangeError} for a type that is not an event type name (`isEventTypeName`), or
   * `data` with no JSON form or over {@link MAXIMUM_PAYLOAD_BYTES} as JSON.
   */
  async sendTestEvent(
    ownerId: number,
    endpointId: string,
    type: string,
    data: unknown,
  ): Promise<TestEventSent | undefined> {
    checkEventType(type);
    const json = payloadJson(data);
    const endpoint = await this.#store.findEndpoint(ownerId, endpointId);
    if (!endpoint) return undefined;
    const now = this.#clock();
    const id = newMessageId(now);
    await this.#store.insertMessage(this.#writer, {
      id,
      ownerId,
      eventType: type,
      payload: json,
      addressedTo: endpoint.id,
      createdAt: now,
    });
    await this.#enqueue(this.#writer, ownerId, id, endpoint.id);
    return { messageId: id };
  }

  /**
   * Sends the owner's message again to every endpoint of theirs that takes its type now (a
   * test event: to its endpoint, if it still exists), as new deliveries (attempt 1, same
   * `webhook-id`), except where a delivery of it is still pending: a replay collapses into it,
   * however many come at once. Undefined when the message is not theirs.
   */
  async replayMessage(ownerId: number, messageId: string): Promise<ReplayOutcome | undefined> {
    const message = await this.#store.findMessage(ownerId, messageId);
    if (!message) return undefined;
    const endpoints =
      message.addressedTo === undefined
        ? await this.#store.subscribedEndpoints(this.#writer, ownerId, message.eventType)
        : [await this.#store.findEndpoint(ownerId, message.addressedTo)].filter(
            (endpoint) => endpoint !== undefined,
          );
    const states = await this.#deliveryStates(messageId);
    let queued = 0;
    for (const endpoint of endpoints) {
      if (await this.#replay(ownerId, messageId, endpoint.id, states.get(endpoint.id))) queued++;
    }
    return { queued, alreadyPending: endpoints.length - queued };
  }

  /**
   * Sends again each of the owner's messages tried since `since` that never reached an
   * endpoint (optionally one endpoint), to that endpoint while it is enabled: after an outage.
   * Returns how many deliveries it made; a delivery still pending (being retried) is left to
   * finish instead.
   */
  async replayFailed(
    ownerId: number,
    since: number,
    options: { readonly endpointId?: string | undefined } = {},
  ): Promise<number> {
    const failed = await this.#store.failedDeliveries(ownerId, since, {
      ...options,
      limit: REPLAY_BATCH,
    });
    const enabled = new Set(
      (await this.#store.listEndpoints(ownerId))
        .filter((endpoint) => endpoint.disabledAt === null)
        .map((endpoint) => endpoint.id),
    );
    const states = new Map<string, Map<string, DeliveryState>>();
    let count = 0;
    for (const { messageId, endpointId } of failed) {
      if (!enabled.has(endpointId)) continue;
      if (!states.has(messageId)) states.set(messageId, await this.#deliveryStates(messageId));
      const state = states.get(messageId)?.get(endpointId);
      if (await this.#replay(ownerId, messageId, endpointId, state)) count++;
    }
    return count;
  }

  /** The attempts to the owner's endpoint, newest first; undefined when it is not theirs. */
  async listAttempts(
    ownerId: number,
    endpointId: string,
    limit = 50,
  ): Promise<LoggedAttempt[] | undefined> {
    if (!(await this.#store.findEndpoint(ownerId, endpointId))) return undefined;
    return this.#store.listAttempts(ownerId, endpointId, limit);
  }

  /** Deletes an owner's endpoints, messages and attempts (their account is gone). */
  deleteOwner(ownerId: number): Promise<void> {
    return this.#store.deleteOwner(ownerId);
  }

  async #deliveryStates(messageId: string): Promise<Map<string, DeliveryState>> {
    const states = await this.#store.deliveryStates(messageId);
    return new Map(states.map((state) => [state.endpointId, state]));
  }

  /**
   * Adds a replay of the message to the endpoint unless a delivery of it is pending; true when
   * it added one. The key names the attempts made so far, so replays that come together make
   * one key and the outbox keeps one item; a finished item already under it (its endpoint was
   * disabled when it came up, so it made no attempt) leaves the replay a random key.
   */
  async #replay(
    ownerId: number,
    messageId: string,
    endpointId: string,
    state: DeliveryState | undefined,
  ): Promise<boolean> {
    if (state?.pending) return false;
    const token = `after-${state?.attempts ?? 0}`;
    const added = await this.#enqueue(this.#writer, ownerId, messageId, endpointId, token);
    if (added !== false) return true;
    const taken = await this.#outbox.find(WEBHOOK_QUEUE, deliveryKey(messageId, endpointId, token));
    if (taken?.status === "pending") return false;
    // The replay that made the key may be waiting for a rate limit under a key of its own.
    const now = await this.#deliveryStates(messageId);
    if (now.get(endpointId)?.pending) return false;
    const random = randomToken().slice(0, 12);
    await this.#enqueue(this.#writer, ownerId, messageId, endpointId, random);
    return true;
  }

  /** Enqueues a delivery (a replay given its token); whether it was added, as the outbox says. */
  async #enqueue(
    writer: Writer,
    ownerId: number,
    messageId: string,
    endpointId: string,
    replayToken?: string,
  ): Promise<boolean | undefined> {
    const delivery: QueuedDelivery = { message_id: messageId, endpoint_id: endpointId };
    const key = deliveryKey(messageId, endpointId, replayToken);
    const fairnessKey = deliveryFairnessKey(ownerId);
    const options = { key, fairnessKey };
    return (await this.#outbox.enqueue(writer, WEBHOOK_QUEUE, delivery, options)).created;
  }
}

/** @throws {RangeError} for a type that is not an event type name. */
function checkEventType(type: string): void {
  if (!isEventTypeName(type)) {
    throw new RangeError("an event type is 1 to 100 letters, digits, '.', '_' or '-'");
  }
}

const utf8 = new TextEncoder();

/** A payload's JSON text. @throws {RangeError} for no JSON form, or one over the maximum. */
function payloadJson(payload: unknown): string {
  const json = JSON.stringify(payload);
  if (json === undefined) throw new RangeError("the payload has no JSON form");
  // A UTF-16 unit is at most 3 bytes in UTF-8: only a long text is encoded to be counted.
  if (json.length * 3 > MAXIMUM_PAYLOAD_BYTES && utf8.encode(json).length > MAXIMUM_PAYLOAD_BYTES) {
    throw new RangeError(`the payload is over ${MAXIMUM_PAYLOAD_BYTES} bytes as JSON`);
  }
  return json;
}
