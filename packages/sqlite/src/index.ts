export { isUniqueViolation, type RunResult, type SqlDatabase, type SqlValue } from "./driver.js";
export { applyMigrations, type Migration } from "./migrations.js";
export { rateLimitCountersMigration, SqliteRateLimitStore } from "./rate-limit-store.js";
export { formatTimestamp, parseTimestamp } from "./timestamp.js";
export { SqliteUserStore, usersMigration } from "./user-store.js";
