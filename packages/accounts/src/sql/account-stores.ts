import { CachedApiKeyStore, type CredentialCacheOptions } from "@tessera/bearer";
import {
  apiKeysMigration,
  refreshTokensMigration,
  SqlApiKeyStore,
  SqlRefreshTokenStore,
} from "@tessera/bearer/sql";
import {
  failureStreaksMigration,
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  SqlFailureStreakStore,
  SqlRateLimitStore,
} from "@tessera/ratelimit/sql";
import {
  SqlTrackedSessionStore,
  userSessionsExpiryIndexMigration,
  userSessionsFactorsMigration,
  userSessionsMigration,
} from "@tessera/session/sql";
import type { Migration, SqlDatabase } from "@tessera/sql";
import type { AccountStores } from "../account-routes.js";
import { auditEventsMigration, SqlAuditLog } from "../audit/sql-audit-log.js";
import {
  emailChangesMigration,
  SqlEmailChangeStore,
} from "../email-change/sql-email-change-store.js";
import { emailCodesMigration, SqlEmailCodeStore } from "../email-code/sql-email-code-store.js";
import {
  authTokensMigration,
  SqlEmailedTokenStore,
} from "../email-link/sql-emailed-token-store.js";
import { passkeysMigration, SqlPasskeyStore } from "../passkey/sql-passkey-store.js";
import type { FindFactorSummary } from "../second-factor/factor-summary.js";
import { sqlFactorSummary } from "../second-factor/sql-factor-summary.js";
import {
  mfaChallengesFirstFactorMigration,
  SqlSecondFactorStore,
  secondFactorsMigration,
} from "../second-factor/sql-second-factor-store.js";
import { CachedUserStore } from "../users/cached-user-store.js";
import {
  SqlUserStore,
  usersAdministrationMigration,
  usersCredentialsChangedAtMigration,
  usersImpersonationsMigration,
  usersMigration,
} from "../users/sql-user-store.js";
import type { UserStore } from "../users/user-store.js";

/**
 * The tables account routes use, in the order they must be created: users, API keys, emailed
 * tokens, rate-limit counters, the device list, second factors, passkeys, emailed sign-in
 * codes, the first factor a second-factor challenge follows, when a user's credentials last
 * changed, pending email changes, the failure streaks of per-account throttling, the audit
 * trail, the users' platform role and bans, when operators last stopped impersonating, and
 * the refresh tokens of apps.
 * Apply them with `applyMigrations`.
 */
export const accountMigrations: readonly Migration[] = [
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  usersMigration,
  apiKeysMigration,
  authTokensMigration,
  userSessionsMigration,
  userSessionsExpiryIndexMigration,
  secondFactorsMigration,
  passkeysMigration,
  userSessionsFactorsMigration,
  emailCodesMigration,
  mfaChallengesFirstFactorMigration,
  usersCredentialsChangedAtMigration,
  emailChangesMigration,
  failureStreaksMigration,
  auditEventsMigration,
  usersAdministrationMigration,
  usersImpersonationsMigration,
  refreshTokensMigration,
];

/**
 * The SQL stores of account routes: with tracked sessions (the device list), second factors
 * (TOTP and backup codes), passkeys, emailed sign-in codes and email changes, which
 * `accountRoutes` then turns on.
 */
export interface SqlAccountStores extends AccountStores {
  readonly users: UserStore;
  readonly rateLimits: SqlRateLimitStore;
  readonly failureStreaks: SqlFailureStreakStore;
  readonly auditLog: SqlAuditLog;
  readonly trackedSessions: SqlTrackedSessionStore;
  readonly secondFactors: SqlSecondFactorStore;
  readonly passkeys: SqlPasskeyStore;
  readonly emailCodes: SqlEmailCodeStore;
  readonly emailChanges: SqlEmailChangeStore;
  readonly findFactorSummary: FindFactorSummary;
  readonly refreshTokens: SqlRefreshTokenStore;
}

/**
 * Every store `accountRoutes` needs, on one database whose tables {@link accountMigrations}
 * created. `operatorColumns` names extra `users` columns the app added (see `nameColumn`).
 * Users by id and API keys by digest are served from memory for `credentialCache`'s
 * `maximumStalenessMs` (default 0: always queried); see `CachedUserStore`. Queried, a request
 * with an API key reads the key and its user in one joined statement (`findApiKeyHolder`), and
 * `GET /api/auth/me` a user's TOTP and passkeys in one (`findFactorSummary`).
 */
export function sqlAccountStores(
  database: SqlDatabase,
  operatorColumns: readonly string[] = [],
  credentialCache: CredentialCacheOptions = {},
): SqlAccountStores {
  const users = new SqlUserStore(database, operatorColumns);
  const apiKeys = new SqlApiKeyStore(database);
  // With no staleness allowed the caches would keep nothing: the plain stores serve as they are.
  const cached = (credentialCache.maximumStalenessMs ?? 0) > 0;
  return {
    ...(cached ? {} : { findApiKeyHolder: (digest) => users.findByApiKeyDigest(digest) }),
    users: cached ? new CachedUserStore(users, credentialCache) : users,
    apiKeys: cached ? new CachedApiKeyStore(apiKeys, credentialCache) : apiKeys,
    emailedTokens: new SqlEmailedTokenStore(database),
    rateLimits: new SqlRateLimitStore(database),
    failureStreaks: new SqlFailureStreakStore(database),
    auditLog: new SqlAuditLog(database),
    trackedSessions: new SqlTrackedSessionStore(database),
    secondFactors: new SqlSecondFactorStore(database),
    passkeys: new SqlPasskeyStore(database),
    emailCodes: new SqlEmailCodeStore(database),
    emailChanges: new SqlEmailChangeStore(database),
    findFactorSummary: sqlFactorSummary(database),
    refreshTokens: new SqlRefreshTokenStore(database),
  };
}
