// The SQL store of jobs (`@tessera/jobs/sql`), on any `@tessera/sql` driver.
export { type JobTableMigrationOptions, jobTableMigration, SqlJobStore } from "./sql/job-store.js";
