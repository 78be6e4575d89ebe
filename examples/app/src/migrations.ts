import type { Migration } from "@tessera/sqlite";

/**
 * Every migration of the example app, applied at start. Each package that owns tables exports
 * its migrations; they are listed here in the order they must run.
 */
export const appMigrations: readonly Migration[] = [];
