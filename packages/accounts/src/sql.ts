// The SQL stores of accounts (`@tessera/accounts/sql`), on any `@tessera/sql` driver.
export { auditEventsMigration, SqlAuditLog } from "./audit/sql-audit-log.js";
export {
  emailChangesMigration,
  SqlEmailChangeStore,
} from "./email-change/sql-email-change-store.js";
export { emailCodesMigration, SqlEmailCodeStore } from "./email-code/sql-email-code-store.js";
export { authTokensMigration, SqlEmailedTokenStore } from "./email-link/sql-emailed-token-store.js";
export { passkeysMigration, SqlPasskeyStore } from "./passkey/sql-passkey-store.js";
export { sqlFactorSummary } from "./second-factor/sql-factor-summary.js";
export {
  mfaChallengesFirstFactorMigration,
  SqlSecondFactorStore,
  secondFactorsMigration,
} from "./second-factor/sql-second-factor-store.js";
export {
  accountMigrations,
  type SqlAccountStores,
  sqlAccountStores,
} from "./sql/account-stores.js";
export { sqlTokenMailTransaction } from "./sql/token-mail-transaction.js";
export {
  SqlUserStore,
  userMigrations,
  usersAdministrationMigration,
  usersCredentialsChangedAtMigration,
  usersImpersonationsMigration,
  usersMigration,
} from "./users/sql-user-store.js";
