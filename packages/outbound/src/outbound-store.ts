import type { DeliverySlot, DeliverySlotRequest } from "./delivery-slots.js";

/**
 * An endpoint as the store keeps it: where an owner's events go, which ones, and its secrets
 * in sealed form (never shown; see the README's "Secrets"). Times are epoch milliseconds.
 */
export interface StoredEndpoint {
  /** `ep_` and 24 random characters. */
  readonly id: string;
  readonly ownerId: number;
  readonly url: string;
  /** The event types it receives; empty receives every type. */
  readonly eventTypes: readonly string[];
  readonly description: string;
  /** The current `whsec_` secret, sealed. */
  readonly sealedSecret: string;
  /** The secret before the last rotation, sealed, while it is still signed with. */
  readonly previousSealedSecret: string | null;
  /** Until when the previous secret signs too (24 h after a rotation). */
  readonly previousSecretUntil: number | null;
  /** When it was disabled (by its owner, or for failing 5 days), or null while enabled. */
  readonly disabledAt: number | null;
  /** Since when every delivery to it has failed, or null after a success. */
  readonly failingSince: number | null;
  /**
   * Its custom headers, name → value sealed (`sealEndpointHeaders`): every delivery carries
   * them. Empty for none.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** Deliveries a second it takes at most (1 to 10,000), or null for no limit. */
  readonly rateLimit: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What {@link OutboundStore.updateEndpoint} may change. */
export interface EndpointChange {
  readonly url?: string | undefined;
  readonly eventTypes?: readonly string[] | undefined;
  readonly description?: string | undefined;
  /** A time disables it; null enables it again (and forgets its failing streak). */
  readonly disabledAt?: number | null | undefined;
  /** Its custom headers, sealed, replacing those it had (empty: none). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Its rate limit (null: none); a change starts its pacing afresh. */
  readonly rateLimit?: number | null | undefined;
}

/** One event for an owner's endpoints; `payload` is its JSON text. */
export interface StoredMessage {
  /** `msg_`, its time, then random characters (24 in all): the `webhook-id` of its deliveries. */
  readonly id: string;
  readonly ownerId: number;
  readonly eventType: string;
  readonly payload: string;
  /**
   * The one endpoint the message is for (a test event, `sendTestEvent`), whatever its filter;
   * absent for an event, which goes to every endpoint whose filter takes its type.
   */
  readonly addressedTo?: string | undefined;
  readonly createdAt: number;
}

/** One try at delivering a message to an endpoint. */
export interface DeliveryAttempt {
  readonly messageId: string;
  readonly endpointId: string;
  /** 1 for the first try of a delivery (a replay starts again at 1). */
  readonly attempt: number;
  readonly status: "succeeded" | "failed";
  /** The answer's status, or null when none came (refused, timeout, network error). */
  readonly responseStatus: number | null;
  readonly durationMs: number;
  /** The answer's first KiB, or why there was no answer. */
  readonly response: string;
  readonly createdAt: number;
}

/** An attempt as the log lists it: with its id and its message's event type. */
export interface LoggedAttempt extends DeliveryAttempt {
  readonly id: number;
  readonly eventType: string;
}

/** A message that did not reach an endpoint (see {@link OutboundStore.failedDeliveries}). */
export interface FailedDelivery {
  readonly messageId: string;
  readonly endpointId: string;
}

/** Where the deliveries of a message to one endpoint stand (see {@link OutboundStore.deliveryStates}). */
export interface DeliveryState {
  readonly endpointId: string;
  /** The outbox's `webhook` queue holds a delivery of it not yet ended (due, retrying, held). */
  readonly pending: boolean;
  /** The attempts logged so far, replays' included. */
  readonly attempts: number;
}

/**
 * A store's word, given outside any transaction, that no enabled endpoint of an owner takes an
 * event type (see {@link OutboundStore.unsubscribed}): good for a write made after it only
 * when {@link UnsubscribedOwner.stillUnsubscribed} says so once that write is done.
 */
export interface UnsubscribedOwner {
  /**
   * Asked once the write is done: true when nothing that could change the word happened since
   * it was given (the SQL store: no endpoint written through this connection, no commit by any
   * other), or when the owner's endpoints, read again, still take no event of the type. False:
   * some endpoint takes it now, and the event is to be sent after all (`send`, in a
   * transaction of its own), to every endpoint that takes it then.
   */
  stillUnsubscribed(): Promise<boolean>;
}

/** Options of {@link OutboundStore.pruneMessages}. */
export interface PruneMessagesOptions {
  /** Messages created before this time (epoch milliseconds) are deleted, with their attempts. */
  readonly olderThan: number;
  /** Messages per statement (default 1,000); between statements other work gets its turn. */
  readonly batchSize?: number | undefined;
}

/**
 * The store of `@tessera/outbound`: endpoints, messages and attempts. Every lookup an owner's
 * request makes is scoped by owner in the query itself; the `…ById` reads are for the delivery
 * runner. `Writer` is what `insertMessage` writes through (the database or a transaction on
 * it), so a message commits with the caller's write and the outbox items that deliver it.
 */
export interface OutboundStore<Writer> {
  /**
   * Adds an endpoint; with `maximumPerOwner`, only while its owner has fewer endpoints than
   * that (enabled or not), checked with the insert so that requests made together cannot pass
   * it. False when it was not added.
   */
  insertEndpoint(endpoint: StoredEndpoint, maximumPerOwner?: number): Promise<boolean>;
  /** The owner's endpoints, newest first. */
  listEndpoints(ownerId: number): Promise<StoredEndpoint[]>;
  findEndpoint(ownerId: number, id: string): Promise<StoredEndpoint | undefined>;
  /** Unscoped: for the runner, which delivers for every owner. */
  findEndpointById(id: string): Promise<StoredEndpoint | undefined>;
  /** Changes the owner's endpoint; undefined when it is not theirs (or gone). */
  updateEndpoint(
    ownerId: number,
    id: string,
    change: EndpointChange,
    now: number,
  ): Promise<StoredEndpoint | undefined>;
  /**
   * In one statement: the current secret becomes the previous one, valid until
   * `previousSecretUntil`, and `sealedSecret` the current one.
   */
  rotateEndpointSecret(
    ownerId: number,
    id: string,
    sealedSecret: string,
    previousSecretUntil: number,
    now: number,
  ): Promise<StoredEndpoint | undefined>;
  /** Deletes the owner's endpoint and its attempts; false when it is not theirs. */
  deleteEndpoint(ownerId: number, id: string): Promise<boolean>;
  /**
   * The owner's enabled endpoints whose filter takes `eventType`, read through `reader` (the
   * transaction a send writes in: on SQLite a read beside it would wait for it to end).
   */
  subscribedEndpoints(
    reader: Writer,
    ownerId: number,
    eventType: string,
  ): Promise<StoredEndpoint[]>;
  /**
   * Optional: the ids of the owner's enabled endpoints whose filter takes `eventType`, read
   * through `reader` as {@link OutboundStore.subscribedEndpoints} is, in the same order: all a
   * send needs, which a store may answer from what it keeps (the SQL store's cache).
   */
  subscribedEndpointIds?(reader: Writer, ownerId: number, eventType: string): Promise<string[]>;
  /**
   * Optional: when the store can tell cheaply, outside any transaction, that no enabled
   * endpoint of the owner takes `eventType`, its word for it, read through `reader`; undefined
   * when it cannot tell or some endpoint takes it (the caller then sends in its transaction).
   */
  unsubscribed?(
    reader: Writer,
    ownerId: number,
    eventType: string,
  ): Promise<UnsubscribedOwner | undefined>;
  /** A failed delivery: starts the failing streak, or disables the endpoint when it began at or before `disableIfFailingSince`; true only for the call that disabled it. */
  noteDeliveryFailed(id: string, now: number, disableIfFailingSince: number): Promise<boolean>;
  /** A delivery succeeded: the failing streak ends. */
  noteDeliverySucceeded(id: string): Promise<void>;
  /**
   * A turn for one delivery to a rate-limited endpoint, for the sender of any process: taken
   * when the endpoint's next free slot is within `reachMs` (slots `1 / perSecond` apart, the
   * taking atomic), else a place in the endpoint's line to come back at (see `takeSlot`).
   * Undefined when the endpoint is gone.
   */
  takeDeliverySlot(id: string, request: DeliverySlotRequest): Promise<DeliverySlot | undefined>;
  insertMessage(writer: Writer, message: StoredMessage): Promise<void>;
  findMessage(ownerId: number, id: string): Promise<StoredMessage | undefined>;
  findMessageById(id: string): Promise<StoredMessage | undefined>;
  insertAttempt(attempt: DeliveryAttempt): Promise<void>;
  /**
   * Each endpoint a message has a pending delivery to or attempts at, for a replay: it adds no
   * delivery where one is pending. The SQL store reads `outbox_items`, as the retention does.
   */
  deliveryStates(messageId: string): Promise<DeliveryState[]>;
  /** The attempts to the owner's endpoint, newest first, at most `limit`. */
  listAttempts(ownerId: number, endpointId: string, limit: number): Promise<LoggedAttempt[]>;
  /**
   * The owner's message–endpoint pairs tried since `since` that never succeeded, oldest
   * message first (at most `limit`), optionally for one endpoint.
   */
  failedDeliveries(
    ownerId: number,
    since: number,
    options: { readonly endpointId?: string | undefined; readonly limit: number },
  ): Promise<FailedDelivery[]>;
  /**
   * Deletes the messages created before `olderThan`, with their attempts, in batches; returns
   * how many messages. A message the outbox's `webhook` queue still holds a pending item for
   * (due, waiting for a retry, held by a sender, or a replay of an old message) is kept: its
   * delivery reads it. The SQL store reads `outbox_items`, so both live in one database.
   */
  pruneMessages(options: PruneMessagesOptions): Promise<number>;
  /** Deletes everything of an owner (a deleted user): endpoints, messages, attempts. */
  deleteOwner(ownerId: number): Promise<void>;
}
