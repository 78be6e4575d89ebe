// The SQL stores of accounts (`@tessera/accounts/sql`), on any `@tessera/sql` driver.
export {
  emailChangesMigration,
  SqlEmailChangeStore,
} from "./email-change/sql-email-change-store.js";
export {
  accountMigrations,
  type SqlAccountStores,
  sqlAccountStores,
} from "./sql/account-stores.js";
export { emailCodesMigration, SqlEmailCodeStore } from "./sql/email-code-store.js";
export { authTokensMigration, SqlEmailedTokenStore } from "./sql/emailed-token-store.js";
export { sqlFactorSummary } from "./sql/factor-summary.js";
export { passkeysMigration, SqlPasskeyStore } from "./sql/passkey-store.js";
export {
  mfaChallengesFirstFactorMigration,
  SqlSecondFactorStore,
  secondFactorsMigration,
} from "./sql/second-factor-store.js";
export { sqlTokenMailTransaction } from "./sql/token-mail-transaction.js";
export {
  SqlUserStore,
  userMigrations,
  usersCredentialsChangedAtMigration,
  usersMigration,
} from "./sql/user-store.js";
