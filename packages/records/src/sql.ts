// The SQL store of records (`@tessera/records/sql`), on any `@tessera/sql` driver.
export { recordMigration } from "./sql/record-migration.js";
export { SqlRecordStore, type SqlRecordStoreOptions, uniqueColumns } from "./sql/record-store.js";
