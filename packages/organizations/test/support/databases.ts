import { organizationMigrations, SqlOrganizationStore } from "@tessera/organizations/sql";
import type { OrganizationStoreUnderTest } from "@tessera/organizations/testing";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import {
  migratedPostgresSchema,
  migratedSqliteFile,
} from "../../../../test/support/migrated-databases.js";

/**
 * The least of accounts' `users` the foreign keys need, with the `name` an app may add (the
 * repository's store contracts run on accounts' own table).
 */
const usersMigration: Migration = {
  id: "0001_tessera_users",
  sql: portableDdl(`CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL UNIQUE,
  name TEXT
)`),
};

const MIGRATIONS = [usersMigration, ...organizationMigrations];

/** A SQLite file with `users` and the organizations' tables, and a way to open more connections. */
export const sqliteFile = () => migratedSqliteFile(MIGRATIONS);

/** A schema of its own on the run's PostgreSQL server with the tables, and more pools on it. */
export const postgresSchema = () => migratedPostgresSchema(MIGRATIONS);

/** Inserts a user into the test `users` table and gives their id. */
export async function insertUser(
  database: SqlDatabase,
  email: string,
  name: string | null,
): Promise<number> {
  const row = await database.get<{ id: number | string }>(
    "INSERT INTO users (email, name) VALUES (?, ?) RETURNING id",
    [email, name],
  );
  return Number(row?.id);
}

/** The SQL store on `database` for the contract, showing the users' names. */
export function underTest(database: SqlDatabase): OrganizationStoreUnderTest {
  return {
    store: new SqlOrganizationStore(database, { memberNameColumn: "name" }),
    newUser: (email, name) => insertUser(database, email, name),
  };
}
