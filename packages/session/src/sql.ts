// The SQL store of tracked sessions (`@tessera/session/sql`), on any `@tessera/sql` driver.
export {
  SqlTrackedSessionStore,
  userSessionsExpiryIndexMigration,
  userSessionsFactorsMigration,
  userSessionsMigration,
} from "./sql/tracked-session-store.js";
