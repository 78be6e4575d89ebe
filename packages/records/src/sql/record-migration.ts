import { createTableSql, type Model, POSTGRES, SQLITE } from "@tessera/fields";
import type { Migration } from "@tessera/sql";

/**
 * The migration creating a model's table, owned by `users`, with its indexes and the child
 * tables of its `attachments` fields, in both dialects. `id` orders it among the app's
 * migrations: give a referenced model's table a smaller id than the tables that reference it.
 */
export function recordMigration(model: Model, id: string): Migration {
  return {
    id,
    sql: {
      sqlite: createTableSql(model, { dialect: SQLITE }),
      postgres: createTableSql(model, { dialect: POSTGRES }),
    },
  };
}
