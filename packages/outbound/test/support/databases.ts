import { outboundMigrations } from "@tessera/outbound/sql";
import { outboxMigrations } from "@tessera/outbox/sql";
import {
  migratedPostgresSchema,
  migratedSqliteFile,
} from "../../../../test/support/migrated-databases.js";

const MIGRATIONS = [...outboxMigrations, ...outboundMigrations];

/** A SQLite file with the outbox's and outbound tables, and a way to open more connections. */
export const sqliteFile = () => migratedSqliteFile(MIGRATIONS);

/** A schema of its own on the run's PostgreSQL server with the tables, and more pools on it. */
export const postgresSchema = () => migratedPostgresSchema(MIGRATIONS);
