import { outboxMigrations } from "@tessera/outbox/sql";
import {
  migratedPostgresSchema,
  migratedSqliteFile,
} from "../../../../test/support/migrated-databases.js";

/** A migrated SQLite file in a new folder, and a way to open more connections to it. */
export const sqliteFile = () => migratedSqliteFile(outboxMigrations);

/** A migrated schema of its own on the run's PostgreSQL server, and more pools on it. */
export const postgresSchema = () => migratedPostgresSchema(outboxMigrations);
