// The SQL store of the outbox (`@tessera/outbox/sql`), on any `@tessera/sql` driver.
export {
  outboxFairnessKeyMigration,
  outboxItemsMigration,
  outboxMigrations,
  SqlOutbox,
  type SqlOutboxOptions,
} from "./sql/sql-outbox.js";
