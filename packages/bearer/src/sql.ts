// The SQL store of API keys (`@tessera/bearer/sql`), on any `@tessera/sql` driver.
export { apiKeysMigration, SqlApiKeyStore } from "./sql/api-key-store.js";
