import { columnDefinitions, fieldIndexes } from "./column-ddl.js";
import { attachmentColumns, childAttachmentName, childTableName, type Model } from "./field.js";
import { quoteIdentifier as q, SQLITE, type SqlDialect } from "./sql-dialect.js";

/** The table the owner column `user_id` references; a record write needs its owner's row. */
export const OWNER_TABLE = "users";

/** Options of {@link createTableSql}. */
export interface CreateTableOptions {
  /**
   * Add the owner column `user_id`, a foreign key to `users` that cascades on delete (default
   * true: records belong to users). Pass false for tables no user owns.
   */
  readonly ownedByUser?: boolean;
  /** Default {@link SQLITE}. */
  readonly dialect?: SqlDialect;
}

/**
 * The whole CREATE TABLE migration of a model: `id`, the owner column, the fields' columns,
 * `created_at` and `updated_at`, then the indexes, then one child table per `attachments` field
 * (`<model>_<singular>`, deleted with its parent row). Statements end in `;`.
 */
export function createTableSql(model: Model, options: CreateTableOptions = {}): string {
  const dialect = options.dialect ?? SQLITE;
  const owned = options.ownedByUser ?? true;
  const ownerColumn = `${q("user_id")} ${dialect.integer} NOT NULL REFERENCES ${q(OWNER_TABLE)} ("id") ON DELETE CASCADE`;
  const statements = [
    createTable(
      model.table,
      [
        ...(owned ? [ownerColumn] : []),
        ...model.fields.flatMap((f) => columnDefinitions(f, dialect)),
      ],
      dialect,
    ),
    ...(owned ? [ownerIndex(model.table, dialect)] : []),
    ...model.fields.flatMap((field) =>
      fieldIndexes(model.table, field, owned ? "user_id" : undefined),
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
 * The owner's index, which lists newest first and pages after an id. SQLite's index entries end
 * in the row id, which `id` is, so `("user_id")` serves `ORDER BY id`; PostgreSQL needs the id
 * in the index itself.
 */
function ownerIndex(table: string, dialect: SqlDialect): string {
  const columns = dialect.name === "postgres" ? `"user_id", "id"` : `"user_id"`;
  return `CREATE INDEX ${q(`index_${table}_on_user_id`)} ON ${q(table)} (${columns});`;
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
