import { createTableSql, type Model } from "@tessera/fields";

/** A schema change as `@tessera/sqlite`'s `applyMigrations` takes it. */
export interface RecordMigration {
  readonly id: string;
  readonly sql: string;
}

/**
 * The migration creating a model's table, owned by `users`, with its indexes and the child
 * tables of its `attachments` fields. `id` orders it among the app's migrations: give a
 * referenced model's table a smaller id than the tables that reference it.
 */
export function recordMigration(model: Model, id: string): RecordMigration {
  return { id, sql: createTableSql(model) };
}
