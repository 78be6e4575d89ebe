import { columnDefinitions, fieldIndexes } from "./column-ddl.js";
import { attachmentColumns, childAttachmentName, childTableName, type Model } from "./field.js";
import { OWNER_TABLE, ownerColumnOf, ownerKindOf, ownerTableOf } from "./record-owner.js";
import { quoteIdentifier as q, SQLITE, type SqlDialect } from "./sql-dialect.js";

/** Options of {@link createTableSql}. */
export interface CreateTableOptions {
  /**
   * Add the owner's columns (default true: records belong to their owner). For a user's model,
   * `user_id`, a foreign key to `users` that cascades on delete; for an organization's
   * (`owner: "organization"`), `organization_id` to `organizations`, cascading too, and
   * `created_by` to `users`, set to null when that user goes. Pass false for tables no one owns.
   */
  readonly ownedByUser?: boolean | undefined;
  /** Default {@link SQLITE}. */
  readonly dialect?: SqlDialect | undefined;
}

/**
 * The whole CREATE TABLE migration of a model: `id`, the owner's columns, the fields' columns,
 * `created_at` and `updated_at`, then the indexes, then one child table per `attachments` field
 * (`<model>_<singular>`, deleted with its parent row). Statements end in `;`.
 */
export function createTableSql(model: Model, options: CreateTableOptions = {}): string {
  const dialect = options.dialect ?? SQLITE;
  const owned = options.ownedByUser ?? true;
  const ownerColumn = ownerColumnOf(model);
  const statements = [
    createTable(
      model.table,
      [
        ...(owned ? ownerColumnDefinitions(model, dialect) : []),
        ...model.fields.flatMap((f) => columnDefinitions(f, dialect)),
      ],
      dialect,
    ),
    ...(owned ? [ownerIndex(model.table, ownerColumn, dialect)] : []),
    ...model.fields.flatMap((field) =>
      fieldIndexes(model.table, field, owned ? ownerColumn : undefined),
    ),
  ];
  for (const field of model.fields) {
    if (field.type !== "attachments") continue;
    const child = childTableName(model.name, field);
    const parentColumn = `${model.name}_id`;
    const file = attachmentColumns(childAttachmentName(field)).map(
      (name) => `${q(name)} ${name.endsWith("_size") ? dialect.integer : dialect.text} NOT NULL`,
    );
    statements.push(
      createTable(
        child,
        [
          `${q(parentColumn)} ${dialect.integer} NOT NULL REFERENCES ${q(model.table)} ("id") ON DELETE CASCADE`,
          ...file,
        ],
        dialect,
      ),
      `CREATE INDEX ${q(`index_${child}_on_${parentColumn}`)} ON ${q(child)} (${q(parentColumn)});`,
    );
  }
  return `${statements.join("\n")}\n`;
}

/**
 * The owner's columns: `user_id`, or `organization_id` and `created_by`. Deleting the owner
 * deletes its records; a creator who leaves (or deletes their account) leaves them behind.
 */
function ownerColumnDefinitions(model: Model, dialect: SqlDialect): string[] {
  const owner = `${q(ownerColumnOf(model))} ${dialect.integer} NOT NULL REFERENCES ${q(ownerTableOf(model))} ("id") ON DELETE CASCADE`;
  if (ownerKindOf(model) === "user") return [owner];
  return [
    owner,
    `${q("created_by")} ${dialect.integer} REFERENCES ${q(OWNER_TABLE)} ("id") ON DELETE SET NULL`,
  ];
}

/**
 * The owner's index, which lists newest first and pages after an id. SQLite's index entries end
 * in the row id, which `id` is, so `("user_id")` serves `ORDER BY id`; PostgreSQL needs the id
 * in the index itself.
 */
function ownerIndex(table: string, column: string, dialect: SqlDialect): string {
  const columns = dialect.name === "postgres" ? `${q(column)}, "id"` : q(column);
  return `CREATE INDEX ${q(`index_${table}_on_${column}`)} ON ${q(table)} (${columns});`;
}

function createTable(table: string, columns: readonly string[], dialect: SqlDialect): string {
  const lines = [
    `${q("id")} ${dialect.primaryKey}`,
    ...columns,
    `${q("created_at")} ${dialect.text} NOT NULL DEFAULT ${dialect.now}`,
    `${q("updated_at")} ${dialect.text} NOT NULL DEFAULT ${dialect.now}`,
  ];
  return `CREATE TABLE ${q(table)} (\n  ${lines.join(",\n  ")}\n);`;
}
