import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { applyMigrations, type Migration, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { type AppConfig, ConfigError } from "./config.js";

/** The app's database, on either engine, with a way to close it at shutdown. */
export interface AppDatabase extends SqlDatabase {
  close(): Promise<void>;
}

/**
 * Opens the database the settings name: PostgreSQL at `DATABASE_URL` when set, else the SQLite
 * file `DATABASE_PATH` (creating its folder; `:memory:` gives a private in-memory database).
 * Then applies every migration not yet applied: once, even when several processes start
 * together. A server that cannot be reached is a {@link ConfigError} naming its host, never
 * the URL (it holds a password).
 */
export async function openAppDatabase(
  config: Pick<AppConfig, "databasePath" | "databaseUrl">,
  migrations: readonly Migration[],
): Promise<AppDatabase> {
  const database = config.databaseUrl
    ? await openPostgresDatabase(config.databaseUrl)
    : openSqliteDatabase(config.databasePath);
  try {
    await applyMigrations(database, migrations);
  } catch (error) {
    await database.close();
    throw unreachable(error, config.databaseUrl) ?? error;
  }
  return database;
}

// pg costs a process about 0.1 s of start-up and 13 MiB: imported only by an app that uses it,
// not by one on SQLite.
async function openPostgresDatabase(url: string): Promise<AppDatabase> {
  const { openPostgres } = await import("@tessera/postgres/pg");
  return openPostgres(url);
}

function openSqliteDatabase(path: string): AppDatabase {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  // Group commit: the transactions of one turn of the event loop (a note and its webhook event,
  // for each of the requests of that turn) share one COMMIT, and each answers once it is
  // committed. A create with one webhook endpoint went from about 2.4x the CPU of a create
  // with none to about 1.3x (docs/benchmarks.md, "outbound webhooks").
  const database = openSqliteFile(path, { groupCommit: true });
  return { ...database, close: async () => database.close() };
}

/** A connection failure as a ConfigError naming the server's host and port only. */
function unreachable(error: unknown, url: string | undefined): ConfigError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const connectionCodes = [
    "ECONNREFUSED",
    "ENOTFOUND",
    "ETIMEDOUT",
    "EHOSTUNREACH",
    "28P01",
    "3D000",
  ];
  if (url === undefined || typeof code !== "string" || !connectionCodes.includes(code)) {
    return undefined;
  }
  const { hostname, port, pathname } = new URL(url);
  const server = `${hostname}:${port || "5432"}${pathname}`;
  const reasons: Record<string, string> = {
    "28P01": "the password was refused",
    "3D000": "the database does not exist",
  };
  return new ConfigError(`cannot use the PostgreSQL database ${server}: ${reasons[code] ?? code}`);
}
