// The SQL store of outbound webhooks (`@tessera/outbound/sql`), on any `@tessera/sql` driver.
export {
  outboundEndpointOptionsMigration,
  outboundMessagesRetentionMigration,
  outboundMigrations,
  outboundWebhooksMigration,
} from "./sql/outbound-migration.js";
export { SqlOutboundStore, type SqlOutboundStoreOptions } from "./sql/sql-outbound-store.js";
