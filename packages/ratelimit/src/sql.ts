// The SQL store of rate-limit counters (`@tessera/ratelimit/sql`), on any `@tessera/sql` driver.
export {
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  SqlRateLimitStore,
} from "./sql/rate-limit-store.js";
