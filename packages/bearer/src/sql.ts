// The SQL store of API keys (`@tessera/bearer/sql`), on any `@tessera/sql` driver.
export { apiKeysMigration, SqlApiKeyStore } from "./sql/api-key-store.js";
// The SQL store of refresh token families: tokens as digests, successors sealed by the service.
export { refreshTokensMigration, SqlRefreshTokenStore } from "./sql/refresh-token-store.js";
// The SQL store of JWT signing keys, private parts sealed under the secret key base.
export {
  SqlSigningKeyStore,
  type SqlSigningKeyStoreOptions,
  signingKeysMigration,
} from "./sql/signing-key-store.js";
