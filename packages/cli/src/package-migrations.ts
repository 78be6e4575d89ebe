import { type Migration, migrationSql, type SqlDialectName } from "@tessera/sql";
import { nextMigrationNames } from "./app-folder.js";
import { migrationFile } from "./model-module.js";

/**
 * A package's own migrations (the account tables, the webhook event log) as migration files of
 * the app: numbered on from its last one, named after the package's migration id without its
 * number, the SQL for `dialect`, in the package's order.
 */
export function packageMigrationFiles(
  root: string,
  migrations: readonly Migration[],
  dialect: SqlDialectName,
  command: string,
): (readonly [path: string, content: string])[] {
  const names = nextMigrationNames(
    root,
    migrations.map((migration) => migration.id.replace(/^\d+_/, "")),
  );
  return migrations.map(
    (migration, index) =>
      [
        names[index]!,
        migrationFile(`${migrationSql(migration.sql, dialect).trim()}\n`, command),
      ] as const,
  );
}
