export {
  accountMigrations,
  type SqliteAccountStores,
  sqliteAccountStores,
} from "./account-stores.js";
export { apiKeysMigration, SqliteApiKeyStore } from "./api-key-store.js";
export { authTokensMigration, SqliteEmailedTokenStore } from "./auth-token-store.js";
export { type BatchedDelete, CLEANUP_BATCH_SIZE, deleteInBatches } from "./batched-delete.js";
export { isUniqueViolation, type RunResult, type SqlDatabase, type SqlValue } from "./driver.js";
export { identitiesMigration, SqliteIdentityStore } from "./identity-store.js";
export { type JobTableMigrationOptions, jobTableMigration, SqliteJobStore } from "./job-store.js";
export { applyMigrations, type Migration } from "./migrations.js";
export {
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  SqliteRateLimitStore,
} from "./rate-limit-store.js";
export { isForeignKeyViolation, SqliteRecordStore, uniqueColumns } from "./record-store.js";
export {
  SqliteTrackedSessionStore,
  userSessionsExpiryIndexMigration,
  userSessionsMigration,
} from "./tracked-session-store.js";
export { SqliteUserStore, usersMigration } from "./user-store.js";
export {
  SqliteWebhookEventStore,
  webhookEventsMigration,
  webhookEventsRetentionMigration,
  webhookMigrations,
} from "./webhook-event-store.js";
