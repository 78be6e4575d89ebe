import type { AccountStores } from "@tessera/accounts";
import { apiKeysMigration, SqliteApiKeyStore } from "./api-key-store.js";
import { authTokensMigration, SqliteEmailedTokenStore } from "./auth-token-store.js";
import type { SqlDatabase } from "./driver.js";
import type { Migration } from "./migrations.js";
import {
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  SqliteRateLimitStore,
} from "./rate-limit-store.js";
import {
  SqliteTrackedSessionStore,
  userSessionsExpiryIndexMigration,
  userSessionsMigration,
} from "./tracked-session-store.js";
import { SqliteUserStore, usersMigration } from "./user-store.js";

/**
 * The tables account routes use, in the order they must be created: users, API keys, emailed
 * tokens, rate-limit counters and the device list. Apply them with `applyMigrations`.
 */
export const accountMigrations: readonly Migration[] = [
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  usersMigration,
  apiKeysMigration,
  authTokensMigration,
  userSessionsMigration,
  userSessionsExpiryIndexMigration,
];

/** The SQLite stores of account routes and, for the device list, tracked sessions. */
export interface SqliteAccountStores extends AccountStores {
  readonly users: SqliteUserStore;
  readonly rateLimits: SqliteRateLimitStore;
  readonly trackedSessions: SqliteTrackedSessionStore;
}

/**
 * Every store `accountRoutes` needs, on one database whose tables {@link accountMigrations}
 * created. `operatorColumns` names extra `users` columns the app added (see `nameColumn`).
 */
export function sqliteAccountStores(
  database: SqlDatabase,
  operatorColumns: readonly string[] = [],
): SqliteAccountStores {
  return {
    users: new SqliteUserStore(database, operatorColumns),
    apiKeys: new SqliteApiKeyStore(database),
    emailedTokens: new SqliteEmailedTokenStore(database),
    rateLimits: new SqliteRateLimitStore(database),
    trackedSessions: new SqliteTrackedSessionStore(database),
  };
}
