import { accountMigrations } from "@tessera/accounts/sql";

/** A migration's file name as the CLI numbers it: its place in the app's list, then its name. */
function numbered(position: number, name: string): string {
  return `${String(position).padStart(4, "0")}_${name}`;
}

/**
 * What `generate accounts` writes: @tessera/accounts' own migrations in order, renumbered from
 * 0001 as the app's first migrations.
 */
export const ACCOUNT_MIGRATIONS: readonly string[] = accountMigrations.map((migration, index) =>
  numbered(index + 1, migration.id.replace(/^\d+_/, "")),
);

/**
 * The file name of an app's own migration after the account migrations:
 * `appMigration("create_posts")` is `0012_create_posts` while there are 11 of them, and
 * `offset` counts the app's later ones. Computed, so that a new account migration does not
 * renumber every test by hand.
 */
export function appMigration(name: string, offset = 0): string {
  return numbered(ACCOUNT_MIGRATIONS.length + 1 + offset, name);
}
