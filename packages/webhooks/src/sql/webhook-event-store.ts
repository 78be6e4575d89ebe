import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { WebhookEventPruner } from "../event-retention.js";
import type {
  WebhookClaimReference,
  WebhookClaimResult,
  WebhookEventClaim,
  WebhookEventRecord,
  WebhookEventStatus,
  WebhookEventStore,
} from "../event-store.js";

/** Creates `webhook_events`, the event log of `@tessera/webhooks` (docs/webhooks-and-jobs.md). */
export const webhookEventsMigration: Migration = {
  id: "0004_tessera_webhook_events",
  sql: portableDdl(`CREATE TABLE webhook_events (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  event_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('processing', 'processed', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 1,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (source, event_id)
)`),
};

/**
 * Adds the index retention deletes through: processed events by last update. Partial, so it
 * costs nothing for events still being processed and stays small where retention keeps up.
 */
export const webhookEventsRetentionMigration: Migration = {
  id: "0007_tessera_webhook_events_retention",
  sql: `CREATE INDEX webhook_events_processed_updated_at ON webhook_events (updated_at)
WHERE status = 'processed'`,
};

/** The tables of webhook endpoints' event log, in order: apply them with `applyMigrations`. */
export const webhookMigrations: readonly Migration[] = [
  webhookEventsMigration,
  webhookEventsRetentionMigration,
];

// The whole claim is this one statement: insert the event as `processing`, or take over a
// failed or abandoned one, or leave it alone. RETURNING yields a row only when this delivery
// won, so racing deliveries, on one connection or several, run the effect once.
const CLAIM = `INSERT INTO webhook_events (source, event_id, payload, status, attempts, created_at, updated_at)
VALUES (?, ?, ?, 'processing', 1, ?, ?)
ON CONFLICT (source, event_id) DO UPDATE SET
  status = 'processing', attempts = webhook_events.attempts + 1, updated_at = excluded.updated_at
WHERE webhook_events.status = 'failed'
  OR (webhook_events.status = 'processing' AND webhook_events.updated_at < ?)
RETURNING attempts`;

// Both marks are fenced by `attempts`: an invocation that was presumed dead and taken over
// cannot overwrite what its successor recorded.
const MARK_PROCESSED = `UPDATE webhook_events SET status = 'processed', updated_at = ?
WHERE source = ? AND event_id = ? AND attempts = ? AND status = 'processing'`;

const MARK_FAILED = `UPDATE webhook_events SET status = 'failed', error = ?, updated_at = ?
WHERE source = ? AND event_id = ? AND attempts = ? AND status = 'processing'`;

// A lost claim reads why it lost: a processed event is a duplicate, a live claim is not.
const STATE = `SELECT status, updated_at FROM webhook_events WHERE source = ? AND event_id = ?`;

// One batch of retention. The subquery (on the partial index) picks the oldest rows; the
// DELETE re-checks nothing, as a processed event never changes again.
const DELETE_PROCESSED = `DELETE FROM webhook_events WHERE id IN (
  SELECT id FROM webhook_events WHERE status = 'processed' AND updated_at < ?
  ORDER BY updated_at LIMIT ?)`;

const FIND = `SELECT source, event_id, payload, status, attempts, error, created_at, updated_at
FROM webhook_events WHERE source = ? AND event_id = ?`;

interface EventRow {
  source: string;
  event_id: string;
  payload: string;
  status: WebhookEventStatus;
  attempts: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The {@link WebhookEventStore} of `@tessera/webhooks` on a {@link SqlDatabase} that has run
 * {@link webhookEventsMigration} (and {@link webhookEventsRetentionMigration} for retention).
 * Every write is one statement, so racing deliveries on any number of connections or processes
 * are safe; timestamps have a one-second resolution.
 */
export class SqlWebhookEventStore implements WebhookEventStore, WebhookEventPruner {
  constructor(private readonly database: SqlDatabase) {}

  async claim(claim: WebhookEventClaim): Promise<WebhookClaimResult> {
    const now = formatTimestamp(claim.now);
    const row = await this.database.get<{ attempts: number }>(CLAIM, [
      claim.source,
      claim.eventId,
      claim.payload,
      now,
      now,
      formatTimestamp(claim.staleBefore),
    ]);
    if (row) return { claimed: true, attempts: row.attempts };
    const state = await this.database.get<Pick<EventRow, "status" | "updated_at">>(STATE, [
      claim.source,
      claim.eventId,
    ]);
    if (state?.status === "processed") return { claimed: false, status: "processed" };
    if (state?.status === "processing") {
      return { claimed: false, status: "processing", updatedAt: parseTimestamp(state.updated_at) };
    }
    // Failed or deleted since the claim statement: not a duplicate; come back at once.
    return { claimed: false, status: "processing", updatedAt: claim.staleBefore };
  }

  async markProcessed(claim: WebhookClaimReference): Promise<void> {
    await this.database.run(MARK_PROCESSED, [
      formatTimestamp(claim.now),
      claim.source,
      claim.eventId,
      claim.attempts,
    ]);
  }

  async markFailed(claim: WebhookClaimReference & { readonly error: string }): Promise<void> {
    await this.database.run(MARK_FAILED, [
      claim.error,
      formatTimestamp(claim.now),
      claim.source,
      claim.eventId,
      claim.attempts,
    ]);
  }

  async deleteProcessedBefore(before: number, limit: number): Promise<number> {
    const result = await this.database.run(DELETE_PROCESSED, [formatTimestamp(before), limit]);
    return result.changes;
  }

  /** The event as recorded, or undefined: for inspection and admin pages. */
  async find(source: string, eventId: string): Promise<WebhookEventRecord | undefined> {
    const row = await this.database.get<EventRow>(FIND, [source, eventId]);
    if (!row) return undefined;
    return {
      source: row.source,
      eventId: row.event_id,
      payload: row.payload,
      status: row.status,
      attempts: row.attempts,
      error: row.error,
      createdAt: parseTimestamp(row.created_at),
      updatedAt: parseTimestamp(row.updated_at),
    };
  }
}
