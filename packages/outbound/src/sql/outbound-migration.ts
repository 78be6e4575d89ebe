import { type Migration, portableDdl } from "@tessera/sql";

/**
 * Creates the tables of `@tessera/outbound`: `webhook_endpoints`, `webhook_messages` and
 * `webhook_attempts` (the README describes them). Times are epoch milliseconds, as in the
 * outbox. Owners are ids of the app's own (users, later organisations): no foreign key to
 * `users`, so the app deletes an owner's rows with `deleteOwner`. Attempts go with their
 * endpoint or message.
 */
export const outboundWebhooksMigration: Migration = {
  id: "0011_tessera_outbound_webhooks",
  sql: portableDdl(`CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  owner_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  event_types TEXT NOT NULL,
  description TEXT NOT NULL,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until INTEGER,
  disabled_at INTEGER,
  failing_since INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (owner_id, created_at);
CREATE TABLE webhook_messages (
  id TEXT PRIMARY KEY,
  owner_id INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhook_messages_owner ON webhook_messages (owner_id, created_at);
CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY,
  message_id TEXT NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL CHECK (attempt >= 1),
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  response_status INTEGER,
  duration_ms INTEGER NOT NULL,
  response TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id);
CREATE INDEX webhook_attempts_message ON webhook_attempts (message_id, endpoint_id)`),
};

/**
 * Indexes `webhook_messages` by creation time, for the retention's batches
 * (`pruneMessages`), which would otherwise read the whole table for each one.
 */
export const outboundMessagesRetentionMigration: Migration = {
  id: "0013_tessera_webhook_messages_retention",
  sql: "CREATE INDEX webhook_messages_created ON webhook_messages (created_at)",
};

/**
 * Endpoint options and test events: each endpoint's custom headers (`headers`, a JSON object
 * of name → sealed value), its rate limit (`rate_limit`, deliveries a second, null for none)
 * and its pacing (`rate_next_at`, `rate_queued_until`: epoch microseconds, the next free slot
 * and the end of its line), and the one endpoint a test message is addressed to
 * (`webhook_messages.addressed_to`). Columns added with a default or null: instant on both
 * engines, and every endpoint already there has no header and no limit.
 */
export const outboundEndpointOptionsMigration: Migration = {
  id: "0017_tessera_webhook_endpoint_options",
  sql: portableDdl(`ALTER TABLE webhook_endpoints ADD COLUMN headers TEXT NOT NULL DEFAULT '{}';
ALTER TABLE webhook_endpoints ADD COLUMN rate_limit INTEGER;
ALTER TABLE webhook_endpoints ADD COLUMN rate_next_at INTEGER;
ALTER TABLE webhook_endpoints ADD COLUMN rate_queued_until INTEGER;
ALTER TABLE webhook_messages ADD COLUMN addressed_to TEXT`),
};

/** The tables of `@tessera/outbound`, in order: apply them with `applyMigrations`. */
export const outboundMigrations: readonly Migration[] = [
  outboundWebhooksMigration,
  outboundMessagesRetentionMigration,
  outboundEndpointOptionsMigration,
];
