import type { Field } from "./field.js";
import { quoteIdentifier as q, quoteLiteral, SQLITE, type SqlDialect } from "./sql-dialect.js";

/**
 * The column definitions of a field, one per column, for a CREATE TABLE (`"title" TEXT NOT
 * NULL`). References get their foreign key inline: cascade on delete, or set null when optional.
 */
export function columnDefinitions(field: Field, dialect: SqlDialect = SQLITE): string[] {
  const notNull = field.optional ? "" : " NOT NULL";
  const [column = field.name] = field.columns;
  const c = q(column);
  switch (field.type) {
    case "integer":
      return [`${c} ${dialect.integer}${notNull}`];
    case "float":
      return [`${c} ${dialect.real}${notNull}`];
    case "boolean":
      return [`${c} ${dialect.integer} NOT NULL DEFAULT 0 CHECK (${c} IN (0, 1))`];
    case "lock_version":
      return [`${c} ${dialect.integer} NOT NULL DEFAULT 0`];
    case "public_id":
      return [`${c} ${dialect.text} NOT NULL CHECK (length(${c}) = 22)`];
    case "json":
      return [`${c} ${dialect.text}${notNull} CHECK (${dialect.jsonCheck(c)})`];
    case "enum": {
      const byDefault = field.optional ? "" : ` DEFAULT ${quoteLiteral(field.args[0]!)}`;
      return [`${c} ${dialect.text}${notNull}${byDefault} CHECK (${inList(c, field.args)})`];
    }
    case "references": {
      const onDelete = field.optional ? "SET NULL" : "CASCADE";
      const table = q(field.references!.table);
      return [`${c} ${dialect.integer}${notNull} REFERENCES ${table} ("id") ON DELETE ${onDelete}`];
    }
    case "polymorphic": {
      const [typeColumn, idColumn] = field.columns.map(q) as [string, string];
      return [
        `${typeColumn} ${dialect.text}${notNull} CHECK (${inList(typeColumn, field.args)})`,
        `${idColumn} ${dialect.integer}${notNull}`,
      ];
    }
    case "attachment":
      return field.columns.map(
        (name) => `${q(name)} ${name.endsWith("_size") ? dialect.integer : dialect.text}${notNull}`,
      );
    case "attachments":
      return [];
    default:
      return [`${c} ${dialect.text}${notNull}`];
  }
}

function inList(column: string, values: readonly string[]): string {
  return `${column} IN (${values.map(quoteLiteral).join(", ")})`;
}

/**
 * The indexes a field needs on `table`: unique ones for `^` and the public id (partial, skipping
 * NULL, when optional), and plain ones on references and polymorphic pairs for lookups. A `^`
 * index covers the field's columns alone (unique across the table), or `ownerColumn` first when
 * the field's `uniqueScope` is `owner`; that throws when the table has no owner column.
 */
export function fieldIndexes(table: string, field: Field, ownerColumn?: string): string[] {
  const columns = field.type === "attachments" || field.type === "attachment" ? [] : field.columns;
  if (columns.length === 0) return [];
  const name = q(`index_${table}_on_${columns.join("_and_")}`);
  const list = columns.map(q).join(", ");
  if (field.unique) {
    const partial = field.optional ? ` WHERE ${q(columns.at(-1)!)} IS NOT NULL` : "";
    if (field.uniqueScope === "owner" && ownerColumn === undefined) {
      throw new Error(
        `\`${field.name}\` is unique per owner, but the table ${q(table)} has no owner column`,
      );
    }
    const scope = field.uniqueScope === "owner" ? `${q(ownerColumn!)}, ` : "";
    return [`CREATE UNIQUE INDEX ${name} ON ${q(table)} (${scope}${list})${partial};`];
  }
  if (field.type === "references" || field.type === "polymorphic") {
    return [`CREATE INDEX ${name} ON ${q(table)} (${list});`];
  }
  return [];
}
