import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { SqlDatabase } from "@tessera/sql";
import type { Outcome } from "./commands.js";
import type { Invocation } from "./invocation.js";

/** The database of an app when `--database` does not say: its settings, as the app reads them. */
export const DEFAULT_DATABASE_PATH = "data/app.db";

/** An open database the command closes when done. */
export interface OpenDatabase {
  readonly database: SqlDatabase;
  /** The target as printed: a path, or the URL without its password. */
  readonly shown: string;
  close(): Promise<void>;
}

/**
 * The database a command works on: `--database`, else `DATABASE_URL`, else `DATABASE_PATH`,
 * else {@link DEFAULT_DATABASE_PATH}, as the app reads its settings.
 */
export function databaseTarget(
  invocation: Invocation,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return invocation.database ?? env.DATABASE_URL ?? env.DATABASE_PATH ?? DEFAULT_DATABASE_PATH;
}

/** Whether `target` is a PostgreSQL URL rather than a SQLite file. */
export function isPostgresTarget(target: string): boolean {
  return /^postgres(ql)?:\/\//.test(target);
}

/** The path of a SQLite `target`, relative to the app in `root` unless absolute. */
export function sqlitePath(target: string, root: string): string {
  return target === ":memory:" || isAbsolute(target) ? target : join(root, target);
}

/** A `postgres://` URL through pg, else a SQLite file (relative to the app) through better-sqlite3. */
export async function openDatabase(target: string, root: string): Promise<OpenDatabase> {
  if (isPostgresTarget(target)) {
    const { openPostgres } = await import("@tessera/postgres/pg");
    const database = openPostgres(target, { max: 2 });
    const url = new URL(target);
    url.password = "";
    url.search = "";
    return { database, shown: url.toString(), close: () => database.close() };
  }
  const { openSqliteFile } = await import("@tessera/sqlite/better-sqlite3");
  const database = openSqliteFile(sqlitePath(target, root));
  return { database, shown: target, close: async () => database.close() };
}

/** PostgreSQL's answers for a server, user or database that cannot be used, and socket errors. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "28P01", "28000", "3D000"]);

/**
 * The refusal of a database that cannot be used, in the words every database command gives: a
 * driver to install (`to <purpose> PostgreSQL`, `… a SQLite file`), a server or file to reach;
 * undefined for any other error.
 */
export function databaseRefusal(
  error: unknown,
  target: string,
  purpose: string,
): Extract<Outcome, { ok: false }> | undefined {
  const { code, message = String(error) } = error as {
    code?: string | undefined;
    message?: string | undefined;
  };
  const missing = /Cannot find (?:module|package) '(better-sqlite3|pg)'/.exec(message)?.[1];
  if (missing) {
    return {
      ok: false,
      reason: `${missing} is not installed`,
      hint: `install it (\`npm install ${missing}\`) to ${purpose} ${missing === "pg" ? "PostgreSQL" : "a SQLite file"}`,
    };
  }
  if (code !== undefined && UNREACHABLE.has(code)) {
    return unreachable(message, target);
  }
  return undefined;
}

/** `cannot use the database: <why>`, with the advice for a server or for a file. */
export function unreachable(why: string, target: string): Extract<Outcome, { ok: false }> {
  return {
    ok: false,
    reason: `cannot use the database: ${why}`,
    hint: isPostgresTarget(target)
      ? "check that the server runs and the URL's host, port, user, password and database"
      : "check the path of the SQLite file",
  };
}

/**
 * Runs `work` on the app's existing database (`--database`, `DATABASE_URL`, `DATABASE_PATH`,
 * else `data/app.db`), then closes it. A SQLite file that does not exist is refused, never
 * created (a mistyped path would leave an empty database behind); a database that cannot be
 * used, opening it or during `work`, is refused in migrate's words, saying what the command
 * meant to do (`purpose`: "change roles in"). Any other error is unexpected and thrown.
 */
export async function withExistingDatabase(
  invocation: Invocation,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  purpose: string,
  work: (opened: OpenDatabase) => Promise<Outcome>,
): Promise<Outcome> {
  const target = databaseTarget(invocation, env);
  if (!isPostgresTarget(target) && !existsSync(sqlitePath(target, root))) {
    return unreachable(`there is no SQLite file \`${target}\``, target);
  }
  const unusable = (error: unknown): Outcome => {
    const refusal = databaseRefusal(error, target, purpose);
    if (refusal) return refusal;
    throw error;
  };
  let opened: OpenDatabase;
  try {
    opened = await openDatabase(target, root);
  } catch (error) {
    return unusable(error);
  }
  try {
    return await work(opened);
  } catch (error) {
    return unusable(error);
  } finally {
    await opened.close();
  }
}
