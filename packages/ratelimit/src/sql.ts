// The SQL store of rate-limit counters (`@tessera/ratelimit/sql`), on any `@tessera/sql` driver.
export { failureStreaksMigration, SqlFailureStreakStore } from "./sql/failure-streak-store.js";
export {
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  SqlRateLimitStore,
} from "./sql/rate-limit-store.js";
