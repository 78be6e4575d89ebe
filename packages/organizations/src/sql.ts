// The SQL store of organizations (`@tessera/organizations/sql`), on any `@tessera/sql` driver.
export {
  organizationKeysMigration,
  organizationMigrations,
  organizationsMigration,
} from "./sql/organization-migration.js";
export {
  SqlOrganizationStore,
  type SqlOrganizationStoreOptions,
} from "./sql/sql-organization-store.js";
