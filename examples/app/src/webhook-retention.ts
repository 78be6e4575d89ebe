import { type SqlDatabase, SqliteWebhookEventStore } from "@tessera/sqlite";
import { scheduleEventRetention } from "@tessera/webhooks";
import type { AppConfig } from "./config.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes processed webhook events older than `WEBHOOK_RETENTION_DAYS`, now and then hourly,
 * 1,000 rows per statement. Returns the function that stops it, or undefined when retention
 * is off (`0`). Every process of the app may run it: the deletions share the rows.
 */
export function startWebhookRetention(
  database: SqlDatabase,
  config: AppConfig,
): (() => void) | undefined {
  if (config.webhookRetentionDays === 0) return undefined;
  return scheduleEventRetention(new SqliteWebhookEventStore(database), {
    keepMs: config.webhookRetentionDays * DAY_MS,
    onError: (error) =>
      console.error(`Could not delete old webhook events: ${(error as Error).message}`),
  });
}
