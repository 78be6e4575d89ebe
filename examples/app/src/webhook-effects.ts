import { formatTimestamp, unstorableText } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { WebhookEvent } from "@tessera/webhooks";

/**
 * The tables the example webhooks write to. Each effect is keyed so that running it again
 * (after a failure or a stale claim) changes nothing.
 */
export const webhookEffectsMigration: Migration = {
  id: "0101_app_webhook_effects",
  sql: portableDdl(`CREATE TABLE paid_orders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id TEXT NOT NULL UNIQUE,
  amount REAL NOT NULL,
  event_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE webhook_receipts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (source, event_id)
)`),
};

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/**
 * `POST /webhooks/orders`: an `order.paid` event records a paid order once. Its `data.amount`
 * must be a number and its `data.order_id` a number or text without a NUL or a lone surrogate
 * (PostgreSQL cannot store a NUL, SQLite can); anything else fails the event (500, status
 * `failed`) for a retry to mend.
 */
export function recordPaidOrder(database: SqlDatabase) {
  return async (event: WebhookEvent): Promise<void> => {
    if (field(event.payload, "type") !== "order.paid") return;
    const data = field(event.payload, "data");
    const orderId = field(data, "order_id");
    const amount = field(data, "amount");
    if (typeof orderId !== "string" && typeof orderId !== "number") {
      throw new Error("order.paid event has no data.order_id");
    }
    const unstorable = typeof orderId === "string" && unstorableText(orderId);
    if (unstorable)
      throw new Error(`order.paid event data.order_id is unusable text: ${unstorable}`);
    if (typeof amount !== "number" || !Number.isFinite(amount)) {
      throw new Error("order.paid event data.amount is not a number");
    }
    const now = formatTimestamp(Date.now());
    await database.run(
      `INSERT INTO paid_orders (order_id, amount, event_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (order_id) DO NOTHING`,
      [String(orderId), amount, event.id, now, now],
    );
  };
}

/**
 * The GitHub, Stripe and billing endpoints' effect: a receipt of the event and its type (for
 * GitHub the `X-GitHub-Event` header), once per event. A type that is not text, or holds a
 * NUL or a lone surrogate, is recorded as null: the receipt matters more than its label.
 */
export function recordReceipt(database: SqlDatabase, readType: (event: WebhookEvent) => unknown) {
  return async (event: WebhookEvent): Promise<void> => {
    const type = readType(event);
    const now = formatTimestamp(Date.now());
    await database.run(
      `INSERT INTO webhook_receipts (source, event_id, event_type, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (source, event_id) DO NOTHING`,
      [
        event.source,
        event.id,
        typeof type === "string" && !unstorableText(type) ? type : null,
        now,
        now,
      ],
    );
  };
}

/** The `type` field of a JSON event body (Stripe and Standard Webhooks events carry one). */
export function bodyType(event: WebhookEvent): unknown {
  return field(event.payload, "type");
}
