import { deleteInBatches, type RunResult, type SqlDatabase, type SqlValue } from "@tessera/sql";
import { type DeliverySlot, type DeliverySlotRequest, pacingUnits } from "../delivery-slots.js";
import { deliveryStatesOf } from "../delivery-states.js";
import { eventFilterTakes } from "../event-types.js";
import type {
  DeliveryAttempt,
  DeliveryState,
  EndpointChange,
  FailedDelivery,
  LoggedAttempt,
  OutboundStore,
  PruneMessagesOptions,
  StoredEndpoint,
  StoredMessage,
  UnsubscribedOwner,
} from "../outbound-store.js";
import { deliveryKeyPrefix, parseQueuedDelivery, WEBHOOK_QUEUE } from "../webhook-queue.js";
import {
  type CacheState,
  type SubscribedEndpoint,
  type SubscriptionCache,
  sameState,
  subscriptionCacheOf,
  touchSubscriptionCache,
} from "./subscription-cache.js";

const ENDPOINT_COLUMNS = `id, owner_id, url, event_types, description, secret, previous_secret,
  previous_secret_until, disabled_at, failing_since, headers, rate_limit, created_at, updated_at`;

interface EndpointRow {
  id: string;
  owner_id: number;
  url: string;
  event_types: string;
  description: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  disabled_at: number | null;
  failing_since: number | null;
  headers: string;
  rate_limit: number | null;
  created_at: number;
  updated_at: number;
}

interface MessageRow {
  id: string;
  owner_id: number;
  event_type: string;
  payload: string;
  addressed_to: string | null;
  created_at: number;
}

const MESSAGE_COLUMNS = "id, owner_id, event_type, payload, addressed_to, created_at";

interface AttemptRow {
  id: number;
  message_id: string;
  endpoint_id: string;
  attempt: number;
  status: "succeeded" | "failed";
  response_status: number | null;
  duration_ms: number;
  response: string;
  created_at: number;
  event_type: string;
}

const OWNED = "owner_id = ? AND id = ?";

// What a send needs of the owner's enabled endpoints, in `subscribedEndpoints`' order.
const SUBSCRIBED = `SELECT id, event_types FROM webhook_endpoints
WHERE owner_id = ? AND disabled_at IS NULL ORDER BY created_at, id`;

const INSERT_ENDPOINT = `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS})
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
// One statement: on SQLite (and D1) it holds the write lock from its count to its insert.
const INSERT_ENDPOINT_BELOW = `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS})
SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
WHERE (SELECT COUNT(*) FROM webhook_endpoints WHERE owner_id = ?) < ?`;
// Held to the end of the transaction; the key is the owner's, under this table's name.
const LOCK_OWNER_ENDPOINTS =
  "SELECT pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || CAST(? AS TEXT), 0))";

// The streak starts at the first failure after a success; the endpoint is disabled by the one
// statement that finds it enabled with a streak old enough, so only one runner reports it.
const NOTE_FAILED = `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?)
WHERE id = ?`;
const DISABLE_FAILING = `UPDATE webhook_endpoints SET disabled_at = ?, updated_at = ?
WHERE id = ? AND disabled_at IS NULL AND failing_since <= ?`;

// A slot is taken when the next free one is within the reach: one statement, so senders in
// every process take turns at the row (see `takeSlot`, the same rule in code). Times in µs.
const TAKE_SLOT = `UPDATE webhook_endpoints
SET rate_next_at = CASE WHEN rate_next_at > ? THEN rate_next_at ELSE ? END + ?
WHERE id = ? AND (rate_next_at IS NULL OR rate_next_at <= ?)
RETURNING rate_next_at`;
// Else the delivery joins the line: it comes back one interval after the one before it, and
// no sooner than the next free slot comes within reach.
const JOIN_LINE = `UPDATE webhook_endpoints
SET rate_queued_until = CASE WHEN rate_queued_until > rate_next_at - ? THEN rate_queued_until
  ELSE rate_next_at - ? END + ?
WHERE id = ?
RETURNING rate_queued_until`;

const FAILED_DELIVERIES = (oneEndpoint: boolean) => `SELECT a.message_id, a.endpoint_id
FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id
WHERE m.owner_id = ?${oneEndpoint ? " AND a.endpoint_id = ?" : ""}
GROUP BY a.message_id, a.endpoint_id, m.created_at
HAVING MAX(a.created_at) >= ? AND SUM(CASE WHEN a.status = 'succeeded' THEN 1 ELSE 0 END) = 0
ORDER BY m.created_at, a.message_id, a.endpoint_id
LIMIT ?`;

// A message is old enough and no pending item of the webhook queue delivers it: every key of a
// message's deliveries starts with its id and a dot (`deliveryKey`). The pending items are few
// (the outbox's partial index on pending items serves them), so the check is a short scan.
const PRUNABLE_MESSAGE = `created_at < ? AND NOT EXISTS (SELECT 1 FROM outbox_items o
  WHERE o.queue = ? AND o.status = 'pending'
    AND substr(o.idempotency_key, 1, length(webhook_messages.id) + 1) = webhook_messages.id || '.')`;

/** Options of {@link SqlOutboundStore}. */
export interface SqlOutboundStoreOptions {
  /**
   * Keep each owner's enabled endpoints in memory (default false): a send then reads none, and
   * a write whose event goes nowhere needs no transaction (`unsubscribed`). Only for a SQLite
   * database that is one connection (better-sqlite3, node:sqlite, bun), never D1; ignored on
   * PostgreSQL. The store makes a temporary table and triggers on the connection, which count
   * its own writes to `webhook_endpoints` whatever makes them, and reads SQLite's
   * `data_version`, which moves with every other connection's commit (another process): what
   * it keeps is used only while neither has moved, read in a send's transaction, and once
   * after a write that went without one (one read for the writes of a turn of the event
   * loop). When that check finds an endpoint subscribed meanwhile (by another process, or by
   * SQL written by hand, in the 10 ms before the write or during it), the event goes in a
   * transaction of its own, to every endpoint that takes it then: only a crash between the
   * two commits could lose it.
   */
  readonly cacheSubscriptions?: boolean | undefined;
}

/**
 * The {@link OutboundStore} on a {@link SqlDatabase} that has run `outboundMigrations`, on
 * SQLite (better-sqlite3, node:sqlite, bun, D1) and PostgreSQL (pg, PGlite, postgres.js).
 * `insertMessage` writes through the database or transaction it is given; the rest use the
 * database the store was made with.
 */
export class SqlOutboundStore implements OutboundStore<SqlDatabase> {
  readonly #cache: SubscriptionCache | undefined;

  constructor(
    private readonly database: SqlDatabase,
    options: SqlOutboundStoreOptions = {},
  ) {
    this.#cache =
      options.cacheSubscriptions && database.dialect === "sqlite"
        ? subscriptionCacheOf(database)
        : undefined;
  }

  async insertEndpoint(endpoint: StoredEndpoint, maximumPerOwner?: number): Promise<boolean> {
    const values = endpointValues(endpoint);
    if (maximumPerOwner === undefined) {
      await this.#writeEndpoints(this.database, INSERT_ENDPOINT, values);
      return true;
    }
    const insertBelow = (database: SqlDatabase) =>
      this.#writeEndpoints(database, INSERT_ENDPOINT_BELOW, [
        ...values,
        endpoint.ownerId,
        maximumPerOwner,
      ]);
    if (this.database.dialect === "sqlite") return (await insertBelow(this.database)).changes === 1;
    // PostgreSQL's READ COMMITTED would let two inserts count the same rows: the owner's lock
    // makes them take turns, and each statement then sees the rows committed before it.
    return this.database.transaction(async (transaction) => {
      await transaction.get(LOCK_OWNER_ENDPOINTS, [endpoint.ownerId]);
      return (await insertBelow(transaction)).changes === 1;
    });
  }

  async listEndpoints(ownerId: number): Promise<StoredEndpoint[]> {
    const rows = await this.database.all<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE owner_id = ?
ORDER BY created_at DESC, id DESC`,
      [ownerId],
    );
    return rows.map(endpointOf);
  }

  async findEndpoint(ownerId: number, id: string): Promise<StoredEndpoint | undefined> {
    const row = await this.database.get<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE ${OWNED}`,
      [ownerId, id],
    );
    return row && endpointOf(row);
  }

  async findEndpointById(id: string): Promise<StoredEndpoint | undefined> {
    const row = await this.database.get<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`,
      [id],
    );
    return row && endpointOf(row);
  }

  async updateEndpoint(
    ownerId: number,
    id: string,
    change: EndpointChange,
    now: number,
  ): Promise<StoredEndpoint | undefined> {
    const sets: string[] = ["updated_at = ?"];
    const values: SqlValue[] = [now];
    if (change.url !== undefined) {
      sets.push("url = ?");
      values.push(change.url);
    }
    if (change.eventTypes !== undefined) {
      sets.push("event_types = ?");
      values.push(JSON.stringify(change.eventTypes));
    }
    if (change.description !== undefined) {
      sets.push("description = ?");
      values.push(change.description);
    }
    if (change.disabledAt !== undefined) {
      sets.push("disabled_at = ?", "failing_since = NULL");
      values.push(change.disabledAt);
    }
    if (change.headers !== undefined) {
      sets.push("headers = ?");
      values.push(JSON.stringify(change.headers));
    }
    if (change.rateLimit !== undefined) {
      // A new limit starts afresh: slots and a line made at the old one would hold it back.
      sets.push("rate_limit = ?", "rate_next_at = NULL", "rate_queued_until = NULL");
      values.push(change.rateLimit);
    }
    const { changes } = await this.#writeEndpoints(
      this.database,
      `UPDATE webhook_endpoints SET ${sets.join(", ")} WHERE ${OWNED}`,
      [...values, ownerId, id],
    );
    return changes === 1 ? this.findEndpoint(ownerId, id) : undefined;
  }

  async rotateEndpointSecret(
    ownerId: number,
    id: string,
    sealedSecret: string,
    previousSecretUntil: number,
    now: number,
  ): Promise<StoredEndpoint | undefined> {
    const { changes } = await this.database.run(
      `UPDATE webhook_endpoints SET previous_secret = secret, secret = ?,
  previous_secret_until = ?, updated_at = ? WHERE ${OWNED}`,
      [sealedSecret, previousSecretUntil, now, ownerId, id],
    );
    return changes === 1 ? this.findEndpoint(ownerId, id) : undefined;
  }

  async deleteEndpoint(ownerId: number, id: string): Promise<boolean> {
    // Its attempts go by the foreign key's cascade (on SQLite the drivers turn the pragma on).
    const { changes } = await this.#writeEndpoints(
      this.database,
      `DELETE FROM webhook_endpoints WHERE ${OWNED}`,
      [ownerId, id],
    );
    // D1 counts the cascaded attempts too: one endpoint at most matches the id.
    return changes > 0;
  }

  async subscribedEndpoints(
    reader: SqlDatabase,
    ownerId: number,
    eventType: string,
  ): Promise<StoredEndpoint[]> {
    const rows = await reader.all<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
WHERE owner_id = ? AND disabled_at IS NULL ORDER BY created_at, id`,
      [ownerId],
    );
    // The filter is a short list per endpoint, and an owner has few endpoints: read in code.
    return rows
      .map(endpointOf)
      .filter((endpoint) => eventFilterTakes(endpoint.eventTypes, eventType));
  }

  async subscribedEndpointIds(
    reader: SqlDatabase,
    ownerId: number,
    eventType: string,
  ): Promise<string[]> {
    const cache = this.#cache;
    if (!cache?.ready()) return takers(await this.#read(reader, ownerId), eventType);
    // Read in the transaction a send writes in: on SQLite nothing commits before it does.
    const state = await cache.state(reader);
    const endpoints = cache.get(ownerId, state) ?? (await this.#keep(reader, ownerId, state));
    return takers(endpoints, eventType);
  }

  async unsubscribed(
    reader: SqlDatabase,
    ownerId: number,
    eventType: string,
  ): Promise<UnsubscribedOwner | undefined> {
    const cache = this.#cache;
    if (!cache?.ready()) return undefined;
    // The state read last, if it is recent, is trusted here and checked after the write: a
    // server under load reads it once per turn of its event loop, not twice per write.
    let state = cache.lastState();
    let endpoints = state && cache.get(ownerId, state);
    if (endpoints === undefined) {
      state = await cache.state(reader);
      endpoints = cache.get(ownerId, state) ?? (await this.#keep(reader, ownerId, state));
    }
    if (takers(endpoints, eventType).length > 0) return undefined;
    const guessed = state as CacheState;
    return {
      stillUnsubscribed: async () => {
        const now = await cache.stateAfter(reader);
        if (sameState(now, guessed)) return true;
        // Something changed since the guess: the owner's endpoints as they are now decide.
        const current = await this.#keep(reader, ownerId, now);
        return takers(current, eventType).length === 0;
      },
    };
  }

  /** The owner's enabled endpoints, read now and kept for `state`, read just before. */
  async #keep(
    reader: SqlDatabase,
    ownerId: number,
    state: CacheState,
  ): Promise<SubscribedEndpoint[]> {
    const endpoints = await this.#read(reader, ownerId);
    this.#cache?.set(ownerId, endpoints, state);
    return endpoints;
  }

  /**
   * A write that may change who is subscribed: the cache of the database (of any store on it)
   * reads the state again before its next guess. Its triggers and data_version would tell it
   * anyway, after a write that guessed wrong; this saves that write the check.
   */
  async #writeEndpoints(
    database: SqlDatabase,
    sql: string,
    params: readonly SqlValue[],
  ): Promise<RunResult> {
    try {
      return await database.run(sql, params);
    } finally {
      touchSubscriptionCache(this.database);
    }
  }

  async #read(reader: SqlDatabase, ownerId: number): Promise<SubscribedEndpoint[]> {
    const rows = await reader.all<{ id: string; event_types: string }>(SUBSCRIBED, [ownerId]);
    return rows.map((row) => ({ id: row.id, eventTypes: JSON.parse(row.event_types) }));
  }

  async noteDeliveryFailed(
    id: string,
    now: number,
    disableIfFailingSince: number,
  ): Promise<boolean> {
    await this.database.run(NOTE_FAILED, [now, id]);
    const { changes } = await this.#writeEndpoints(this.database, DISABLE_FAILING, [
      now,
      now,
      id,
      disableIfFailingSince,
    ]);
    return changes === 1;
  }

  async noteDeliverySucceeded(id: string): Promise<void> {
    await this.database.run(
      "UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL",
      [id],
    );
  }

  async takeDeliverySlot(
    id: string,
    request: DeliverySlotRequest,
  ): Promise<DeliverySlot | undefined> {
    const { now, interval, reach } = pacingUnits(request);
    const taken = await this.database.get<{ rate_next_at: number | string }>(TAKE_SLOT, [
      now,
      now,
      interval,
      id,
      now + reach,
    ]);
    if (taken) return { taken: true, sendAt: (Number(taken.rate_next_at) - interval) / 1000 };
    const queued = await this.database.get<{ rate_queued_until: number | string }>(JOIN_LINE, [
      reach,
      reach,
      interval,
      id,
    ]);
    if (!queued) return undefined;
    const comeBack = Number(queued.rate_queued_until) - interval;
    return { taken: false, comeBackAt: Math.ceil(comeBack / 1000) };
  }

  async insertMessage(writer: SqlDatabase, message: StoredMessage): Promise<void> {
    await writer.run(
      `INSERT INTO webhook_messages (${MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`,
      [
        message.id,
        message.ownerId,
        message.eventType,
        message.payload,
        message.addressedTo ?? null,
        message.createdAt,
      ],
    );
  }

  async findMessage(ownerId: number, id: string): Promise<StoredMessage | undefined> {
    const row = await this.database.get<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM webhook_messages WHERE ${OWNED}`,
      [ownerId, id],
    );
    return row && messageOf(row);
  }

  async findMessageById(id: string): Promise<StoredMessage | undefined> {
    const row = await this.database.get<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM webhook_messages WHERE id = ?`,
      [id],
    );
    return row && messageOf(row);
  }

  async insertAttempt(attempt: DeliveryAttempt): Promise<void> {
    // Only while the message and the endpoint exist: one deleted mid-delivery takes no attempt.
    await this.database.run(
      `INSERT INTO webhook_attempts
  (message_id, endpoint_id, attempt, status, response_status, duration_ms, response, created_at)
SELECT ?, ?, ?, ?, ?, ?, ?, ?
WHERE EXISTS (SELECT 1 FROM webhook_messages WHERE id = ?)
  AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ?)`,
      [
        attempt.messageId,
        attempt.endpointId,
        attempt.attempt,
        attempt.status,
        attempt.responseStatus,
        attempt.durationMs,
        attempt.response,
        attempt.createdAt,
        attempt.messageId,
        attempt.endpointId,
      ],
    );
  }

  async deliveryStates(messageId: string): Promise<DeliveryState[]> {
    const prefix = deliveryKeyPrefix(messageId);
    const pending = await this.database.all<{ payload: string }>(
      `SELECT payload FROM outbox_items WHERE queue = ? AND status = 'pending'
  AND substr(idempotency_key, 1, ?) = ?`,
      [WEBHOOK_QUEUE, prefix.length, prefix],
    );
    const attempts = await this.database.all<{ endpoint_id: string; attempts: number | string }>(
      `SELECT endpoint_id, COUNT(*) AS attempts FROM webhook_attempts WHERE message_id = ?
GROUP BY endpoint_id`,
      [messageId],
    );
    const pendingTo = new Set(
      pending.map((row) => parseQueuedDelivery(JSON.parse(row.payload))?.endpoint_id),
    );
    return deliveryStatesOf(
      pendingTo,
      attempts.map((row) => [row.endpoint_id, Number(row.attempts)]),
    );
  }

  async listAttempts(ownerId: number, endpointId: string, limit: number): Promise<LoggedAttempt[]> {
    const rows = await this.database.all<AttemptRow>(
      `SELECT a.id, a.message_id, a.endpoint_id, a.attempt, a.status, a.response_status,
  a.duration_ms, a.response, a.created_at, m.event_type
FROM webhook_attempts a
  JOIN webhook_endpoints e ON e.id = a.endpoint_id
  JOIN webhook_messages m ON m.id = a.message_id
WHERE e.owner_id = ? AND a.endpoint_id = ?
ORDER BY a.id DESC LIMIT ?`,
      [ownerId, endpointId, limit],
    );
    return rows.map(attemptOf);
  }

  async failedDeliveries(
    ownerId: number,
    since: number,
    options: { readonly endpointId?: string | undefined; readonly limit: number },
  ): Promise<FailedDelivery[]> {
    const oneEndpoint = options.endpointId !== undefined;
    const rows = await this.database.all<{ message_id: string; endpoint_id: string }>(
      FAILED_DELIVERIES(oneEndpoint),
      [ownerId, ...(oneEndpoint ? [options.endpointId as string] : []), since, options.limit],
    );
    return rows.map((row) => ({ messageId: row.message_id, endpointId: row.endpoint_id }));
  }

  async pruneMessages(options: PruneMessagesOptions): Promise<number> {
    const batch = options.batchSize === undefined ? {} : { batchSize: options.batchSize };
    const params = [options.olderThan, WEBHOOK_QUEUE];
    // The attempts first, rather than by the foreign key's cascade: D1 counts cascaded rows in
    // `changes`, and the count returned is of messages.
    await deleteInBatches(this.database, {
      table: "webhook_attempts",
      rowKey: ["id"],
      where: `message_id IN (SELECT id FROM webhook_messages WHERE ${PRUNABLE_MESSAGE})`,
      params,
      ...batch,
    });
    return deleteInBatches(this.database, {
      table: "webhook_messages",
      rowKey: ["id"],
      where: PRUNABLE_MESSAGE,
      params,
      ...batch,
    });
  }

  async deleteOwner(ownerId: number): Promise<void> {
    // Attempts go with their endpoint or message (the foreign keys cascade).
    await this.#writeEndpoints(this.database, "DELETE FROM webhook_endpoints WHERE owner_id = ?", [
      ownerId,
    ]);
    await this.database.run("DELETE FROM webhook_messages WHERE owner_id = ?", [ownerId]);
  }
}

/** The ids of the endpoints whose filter takes `eventType`. */
function takers(endpoints: readonly SubscribedEndpoint[], eventType: string): string[] {
  const ids: string[] = [];
  for (const endpoint of endpoints) {
    if (eventFilterTakes(endpoint.eventTypes, eventType)) ids.push(endpoint.id);
  }
  return ids;
}

function endpointValues(endpoint: StoredEndpoint): SqlValue[] {
  return [
    endpoint.id,
    endpoint.ownerId,
    endpoint.url,
    JSON.stringify(endpoint.eventTypes),
    endpoint.description,
    endpoint.sealedSecret,
    endpoint.previousSealedSecret,
    endpoint.previousSecretUntil,
    endpoint.disabledAt,
    endpoint.failingSince,
    JSON.stringify(endpoint.headers),
    endpoint.rateLimit,
    endpoint.createdAt,
    endpoint.updatedAt,
  ];
}

function endpointOf(row: EndpointRow): StoredEndpoint {
  return {
    id: row.id,
    ownerId: Number(row.owner_id),
    url: row.url,
    eventTypes: JSON.parse(row.event_types) as string[],
    description: row.description,
    sealedSecret: row.secret,
    previousSealedSecret: row.previous_secret,
    previousSecretUntil: nullableNumber(row.previous_secret_until),
    disabledAt: nullableNumber(row.disabled_at),
    failingSince: nullableNumber(row.failing_since),
    headers: JSON.parse(row.headers) as Record<string, string>,
    rateLimit: nullableNumber(row.rate_limit),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function messageOf(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    ownerId: Number(row.owner_id),
    eventType: row.event_type,
    payload: row.payload,
    ...(row.addressed_to === null ? {} : { addressedTo: row.addressed_to }),
    createdAt: Number(row.created_at),
  };
}

function attemptOf(row: AttemptRow): LoggedAttempt {
  return {
    id: Number(row.id),
    messageId: row.message_id,
    endpointId: row.endpoint_id,
    attempt: Number(row.attempt),
    status: row.status,
    responseStatus: nullableNumber(row.response_status),
    durationMs: Number(row.duration_ms),
    response: row.response,
    createdAt: Number(row.created_at),
    eventType: row.event_type,
  };
}

const nullableNumber = (value: number | null) => (value === null ? null : Number(value));
