// The SQL store of provider identities (`@tessera/oauth/sql`), on any `@tessera/sql` driver.
export { identitiesMigration, SqlIdentityStore } from "./sql/identity-store.js";
