// The SQL store of the webhook event log (`@tessera/webhooks/sql`), on any `@tessera/sql` driver.
export {
  SqlWebhookEventStore,
  webhookEventsMigration,
  webhookEventsRetentionMigration,
  webhookMigrations,
} from "./sql/webhook-event-store.js";
