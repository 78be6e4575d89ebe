import {
  applyMigrations,
  type MigrationState,
  migrationStatus,
  RefusedMigrationError,
} from "@tessera/sql";
import {
  databaseRefusal,
  databaseTarget,
  type OpenDatabase,
  openDatabase,
} from "./app-database.js";
import { FOREIGN_KEYS_OFF, MIGRATIONS_FOLDER, migrationsOf } from "./app-folder.js";
import type { Outcome } from "./commands.js";
import type { Invocation } from "./invocation.js";

/**
 * `tessera migrate`: applies every pending `migrations/*.sql` in order, each with its record
 * and checksum in one transaction, safe when several processes run it at once; refuses to
 * apply anything when an applied file was changed. `--status` lists them instead.
 */
export async function migrate(
  invocation: Invocation,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Outcome> {
  const target = databaseTarget(invocation, env);
  const migrations = migrationsOf(root);
  let opened: OpenDatabase;
  try {
    opened = await openDatabase(target, root);
  } catch (error) {
    return refusal(error, target);
  }
  try {
    if (invocation.status) {
      const states = await migrationStatus(opened.database, migrations);
      return {
        ok: true,
        text: [`${opened.shown}:`, ...statusLines(states)].join("\n"),
        json: { ok: true, migrations: states },
      };
    }
    const applied = await applyMigrations(opened.database, migrations, { refuseChanged: true });
    const text =
      applied.length === 0
        ? `${opened.shown}: nothing to apply (${migrations.length} applied)`
        : [`${opened.shown}:`, ...applied.map((id) => `applied ${id}`)].join("\n");
    return { ok: true, text, json: { ok: true, applied } };
  } catch (error) {
    return refusal(error, target);
  } finally {
    await opened.close();
  }
}

function statusLines(states: readonly MigrationState[]): string[] {
  if (states.length === 0) return ["no migrations in migrations/"];
  const width = Math.max(...states.map((state) => state.id.length));
  return states.map((state) =>
    [state.state.padEnd(7), state.id.padEnd(width), state.appliedAt ?? ""].join("  ").trimEnd(),
  );
}

/** What went wrong, in the command's words: a driver to install, a database to reach, a file. */
function refusal(error: unknown, target: string): Outcome {
  if (error instanceof RefusedMigrationError) return refusedStatement(error);
  const unusable = databaseRefusal(error, target, "migrate");
  if (unusable) return unusable;
  const { message = String(error) } = error as { message?: string | undefined };
  if (/was changed after it was applied/.test(message)) {
    return {
      ok: false,
      reason: message,
      hint: "restore the applied file from version control, and write the change as a new migration",
    };
  }
  return {
    ok: false,
    reason: message,
    hint: "fix the migration: those before it stay applied, and it left no trace",
  };
}

/** Advice for a statement no migration may hold, by the statement. */
const STATEMENT_ADVICE: Readonly<Record<string, string>> = {
  VACUUM: "run VACUUM on its own, outside migrations",
  "PRAGMA foreign_keys": `write the line \`${FOREIGN_KEYS_OFF}\` in the file instead, and migrate runs it with foreign keys off`,
};

/** A refused statement, named by its file and line as an editor finds them. */
function refusedStatement(error: RefusedMigrationError): Outcome {
  const { statement, line, why } = error.refused;
  const advice =
    STATEMENT_ADVICE[statement] ??
    "remove it: migrate runs each file in a transaction of its own, with its record in `schema_migrations`";
  return {
    ok: false,
    reason: `\`${MIGRATIONS_FOLDER}/${error.id}.sql\` line ${line}: \`${statement}\` ${why}`,
    hint: `${advice}; nothing was applied`,
  };
}
