import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database, Statement } from "better-sqlite3";
import { sendError, sendJson } from "./http-answer.js";
import { readBody } from "./request-body.js";
import { sqlTimestamp } from "./timestamp.js";

const MAX_BODY_BYTES = 1024 * 1024;
const TOLERANCE_SECONDS = 300;
const STALE_AFTER_MS = 300_000;

// The app's three statements (@tessera/webhooks' SQL store and the billing effect), verbatim.
const CLAIM = `INSERT INTO webhook_events (source, event_id, payload, status, attempts, created_at, updated_at)
VALUES (?, ?, ?, 'processing', 1, ?, ?)
ON CONFLICT (source, event_id) DO UPDATE SET
  status = 'processing', attempts = webhook_events.attempts + 1, updated_at = excluded.updated_at
WHERE webhook_events.status = 'failed'
  OR (webhook_events.status = 'processing' AND webhook_events.updated_at < ?)
RETURNING attempts`;
const RECEIPT = `INSERT INTO webhook_receipts (source, event_id, event_type, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (source, event_id) DO NOTHING`;
const MARK_PROCESSED = `UPDATE webhook_events SET status = 'processed', updated_at = ?
WHERE source = ? AND event_id = ? AND attempts = ? AND status = 'processing'`;

/** How a verified delivery is made durable: the app's three writes, or the receipt alone. */
export type DeliveryWrites = "three" | "one";

/**
 * `POST /webhooks/billing` by hand: Standard Webhooks verification (the three headers, the
 * timestamp within 5 minutes, each `v1` signature compared with timingSafeEqual), the JSON
 * body parsed, then either the app's three statements (claim, receipt, mark as processed) or
 * the receipt's INSERT alone, its unique key serving as the idempotency record. A duplicate is
 * answered `{"status":"duplicate"}`; the three-write variant does not read back why a claim
 * was lost (the bench sends no duplicates).
 */
export class BillingWebhook {
  readonly #claim: Statement<
    [string, string, string, string, string, string],
    { attempts: number }
  >;
  readonly #receipt: Statement<[string, string, string | null, string, string]>;
  readonly #markProcessed: Statement<[string, string, string, number]>;

  constructor(
    database: Database,
    private readonly key: Buffer,
  ) {
    this.#claim = database.prepare(CLAIM);
    this.#receipt = database.prepare(RECEIPT);
    this.#markProcessed = database.prepare(MARK_PROCESSED);
  }

  async serve(request: IncomingMessage, response: ServerResponse, writes: DeliveryWrites) {
    const body = await readBody(request, MAX_BODY_BYTES);
    if (body === undefined) {
      const message = `Request body is too large (maximum is ${MAX_BODY_BYTES} bytes)`;
      return sendError(response, 413, "payload_too_large", message, "plain");
    }
    const now = Date.now();
    const id = this.#verifiedId(request, body, now);
    if (id === undefined) {
      return sendError(response, 401, "invalid_signature", "Unauthorized", "plain");
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return sendError(response, 400, "bad_request", "Invalid JSON body", "plain");
    }
    const type = (payload as { type?: unknown } | null)?.type;
    const eventType = typeof type === "string" && !type.includes("\u0000") ? type : null;
    const at = sqlTimestamp(now);
    let fresh: boolean;
    if (writes === "one") {
      fresh = this.#receipt.run("billing", id, eventType, at, at).changes > 0;
    } else {
      const stale = sqlTimestamp(now - STALE_AFTER_MS);
      const claim = this.#claim.get("billing", id, body.toString("utf8"), at, at, stale);
      fresh = claim !== undefined;
      if (claim) {
        this.#receipt.run("billing", id, eventType, at, at);
        this.#markProcessed.run(sqlTimestamp(Date.now()), "billing", id, claim.attempts);
      }
    }
    sendJson(response, 200, fresh ? '{"status":"processed"}' : '{"status":"duplicate"}', "plain");
  }

  #verifiedId(request: IncomingMessage, body: Buffer, now: number): string | undefined {
    const header = (name: string) =>
      (request.headers[`webhook-${name}`] || request.headers[`svix-${name}`]) as string | undefined;
    const id = header("id");
    const timestamp = header("timestamp");
    const signatures = header("signature");
    if (!id || !timestamp || !signatures || !/^\d{1,15}$/.test(timestamp)) return undefined;
    if (Math.abs(now / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return undefined;
    const expected = createHmac("sha256", this.key)
      .update(`${id}.${timestamp}.`)
      .update(body)
      .digest();
    for (const entry of signatures.split(" ")) {
      if (!entry.startsWith("v1,")) continue;
      const given = Buffer.from(entry.slice(3), "base64");
      if (given.length === expected.length && timingSafeEqual(given, expected)) return id;
    }
    return undefined;
  }
}
