import {
  attachmentColumns,
  childAttachmentName,
  childTableName,
  createTableSql,
  type Field,
  fieldIndexes,
  ownerColumnOf,
  ownerColumnsOf,
  parseDeclarations,
  quoteIdentifier as q,
  withUniqueScope,
} from "@tessera/fields";
import { contextFor, type Outcome } from "./commands.js";
import type { Invocation } from "./invocation.js";
import type { MigrationTarget } from "./migration-target.js";

/** What a table change writes: its statements, and the model's declarations after it. */
export type TableChange =
  | {
      readonly ok: true;
      readonly statements: string[];
      readonly declarations: string[];
      /** SQLite must run it with foreign keys off: it rebuilds the table. */
      readonly rebuild?: boolean | undefined;
    }
  | Extract<Outcome, { ok: false }>;

const refused = (reason: string, hint: string) => ({ ok: false as const, reason, hint });

/** The names of the indexes a field has (`fieldIndexes` writes them), quoted. */
function indexNames(target: MigrationTarget, field: Field): string[] {
  return indexesOf(target, field).map((statement) => /INDEX ("[^"]+")/.exec(statement)![1]!);
}

/**
 * The indexes of a field of the target's table, a per-owner unique one on its owner column
 * (`user_id`, or `organization_id` for an organization's model).
 */
function indexesOf(target: MigrationTarget, field: Field): string[] {
  return fieldIndexes(target.table, field, ownerColumnOf(target.source));
}

/** A field parsed anew for the target's model, with the model's unique scope, as it imports. */
function scoped(target: MigrationTarget, field: Field): Field {
  return withUniqueScope([field], target.source.uniqueScope)[0]!;
}

function fieldNamed(target: MigrationTarget, name: string): Field | undefined {
  return target.fields.find((field) => field.name === name);
}

const unknownField = (target: MigrationTarget, name: string) =>
  refused(
    `the model of \`${target.table}\` has no field \`${name}\``,
    `its fields are ${target.fields.map((field) => `\`${field.name}\``).join(", ") || "none"}`,
  );

/**
 * `remove_<columns>_from_<table> <field>...`: drops each field's indexes and columns (an
 * `attachments` field's child table). SQLite cannot drop a column that is a foreign key, so
 * there a reference is removed by rebuilding the table (see {@link rebuildWithout}).
 */
export function removeFields(
  target: MigrationTarget,
  names: readonly string[],
  dialect: "sqlite" | "postgres",
): TableChange {
  const removed = new Set(names);
  const declarations = target.fields
    .filter((field) => !removed.has(field.name))
    .map((field) => field.declaration);
  const statements: string[] = [];
  for (const name of names) {
    const field = fieldNamed(target, name);
    if (!field) return unknownField(target, name);
    if (field.type === "references" && dialect === "sqlite") {
      return rebuildWithout(target, removed, declarations);
    }
    statements.push(...indexNames(target, field).map((index) => `DROP INDEX IF EXISTS ${index};`));
    if (field.type === "attachments") {
      statements.push(`DROP TABLE IF EXISTS ${q(childTableName(target.source.name, field))};`);
      continue;
    }
    for (const column of field.columns) {
      statements.push(`ALTER TABLE ${q(target.table)} DROP COLUMN ${q(column)};`);
    }
  }
  return { ok: true, statements, declarations };
}

/**
 * SQLite's way to drop a foreign key column: a new table as the model now declares it, the
 * rows copied, the old table dropped and the new one renamed, the indexes made again, the
 * AUTOINCREMENT counter kept (ids are never reused). It runs with foreign keys off, so dropping
 * the old table does not cascade into tables that reference it; their references name the
 * table, which exists again by commit, when `PRAGMA foreign_key_check` must find them whole.
 */
function rebuildWithout(
  target: MigrationTarget,
  removed: ReadonlySet<string>,
  declarations: string[],
): TableChange {
  if (target.source.name === "user") {
    return refused(
      "the users table belongs to @tessera/accounts",
      "rebuild it with a migration you write, keeping the columns the account stores use",
    );
  }
  const table = target.table;
  const rebuilt = `${table}_rebuilt`;
  const kept = target.fields.filter((field) => !removed.has(field.name));
  const inTable = kept.filter((field) => field.type !== "attachments");
  const [create = "", ...indexes] = createTableSql(
    { name: target.source.name, table, fields: inTable, owner: target.source.owner },
    { ownedByUser: target.source.owned },
  )
    .trim()
    .split(/;\n/)
    .map((statement) => statement.replace(/;$/, ""));
  const columns = [
    "id",
    ...(target.source.owned ? ownerColumnsOf(target.source) : []),
    ...inTable.flatMap((field) => field.columns),
    "created_at",
    "updated_at",
  ]
    .map((column) => q(column))
    .join(", ");
  const dropped = target.fields.filter(
    (field) => removed.has(field.name) && field.type === "attachments",
  );
  return {
    ok: true,
    rebuild: true,
    declarations,
    statements: [
      `${create.replace(`CREATE TABLE ${q(table)} (`, `CREATE TABLE ${q(rebuilt)} (`)};`,
      `INSERT INTO ${q(rebuilt)} (${columns}) SELECT ${columns} FROM ${q(table)};`,
      `UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = '${table}') WHERE name = '${rebuilt}';`,
      `DROP TABLE ${q(table)};`,
      `ALTER TABLE ${q(rebuilt)} RENAME TO ${q(table)};`,
      ...indexes.map((statement) => `${statement};`),
      ...dropped.map(
        (field) => `DROP TABLE IF EXISTS ${q(childTableName(target.source.name, field))};`,
      ),
    ],
  };
}

/**
 * `rename_<old>_to_<new>_in_<table>`: renames the field's columns (ALTER TABLE RENAME COLUMN,
 * which SQLite and PostgreSQL both have, keeping the data and any foreign key) and its indexes
 * (dropped and made again under the new names); an `attachments` field's child table too.
 */
export function renameField(
  invocation: Invocation,
  root: string,
  target: MigrationTarget,
  from: string,
  to: string,
): TableChange {
  const field = fieldNamed(target, from);
  if (!field) return unknownField(target, from);
  const others = target.fields.filter((other) => other !== field);
  const parsed = parseDeclarations([`${to}${field.declaration.slice(from.length)}`], {
    ...contextFor(invocation, root),
    takenColumns: [
      ...ownerColumnsOf(target.source),
      ...others.flatMap((other) => [other.name, ...other.columns]),
    ],
  });
  if (!parsed.ok) return parsed;
  const renamed = scoped(target, parsed.value[0]!);
  if (field.type === "attachments") {
    return {
      ok: true,
      statements: renameChildTable(target, field, renamed),
      declarations: renamedDeclarations(target, field, renamed),
    };
  }
  const statements = [
    ...indexNames(target, field).map((index) => `DROP INDEX IF EXISTS ${index};`),
    ...field.columns.flatMap((column, index) => {
      const next = renamed.columns[index]!;
      return column === next
        ? []
        : [`ALTER TABLE ${q(target.table)} RENAME COLUMN ${q(column)} TO ${q(next)};`];
    }),
    ...indexesOf(target, renamed),
  ];
  return { ok: true, statements, declarations: renamedDeclarations(target, field, renamed) };
}

function renamedDeclarations(target: MigrationTarget, field: Field, renamed: Field): string[] {
  return target.fields.map((each) => (each === field ? renamed.declaration : each.declaration));
}

/**
 * An `attachments` field's files live in `<model>_<singular>` with `<singular>_key` and the
 * like: the table and those columns take the new name, and its index is made again.
 */
function renameChildTable(target: MigrationTarget, field: Field, renamed: Field): string[] {
  const model = target.source.name;
  const [from, to] = [childTableName(model, field), childTableName(model, renamed)];
  const parent = `${model}_id`;
  const columns = attachmentColumns(childAttachmentName(field));
  const next = attachmentColumns(childAttachmentName(renamed));
  return [
    `DROP INDEX IF EXISTS ${q(`index_${from}_on_${parent}`)};`,
    `ALTER TABLE ${q(from)} RENAME TO ${q(to)};`,
    ...columns.map(
      (column, index) => `ALTER TABLE ${q(to)} RENAME COLUMN ${q(column)} TO ${q(next[index]!)};`,
    ),
    `CREATE INDEX ${q(`index_${to}_on_${parent}`)} ON ${q(to)} (${q(parent)});`,
  ];
}

/**
 * `add_index_to_<table> <field>[^]`: an index on the field's columns, unique with `^` (the
 * model's declaration gains the `^`, so records answer a taken value with a 422).
 */
export function indexField(
  invocation: Invocation,
  root: string,
  target: MigrationTarget,
  argument: string,
): TableChange {
  const unique = argument.endsWith("^");
  const name = unique ? argument.slice(0, -1) : argument;
  const field = fieldNamed(target, name);
  if (!field) return unknownField(target, name);
  const existing = indexNames(target, field);
  if (existing.length > 0 && !(unique && !field.unique)) {
    return refused(`\`${name}\` already has an index`, `it is ${existing.join(", ")}`);
  }
  if (!unique) {
    if (field.columns.length === 0 || field.type === "attachment") {
      return refused(
        `\`${name}\` has no column to index`,
        "index a field stored in the table's own columns",
      );
    }
    const index = q(`index_${target.table}_on_${field.columns.join("_and_")}`);
    return {
      ok: true,
      statements: [
        `CREATE INDEX ${index} ON ${q(target.table)} (${field.columns.map(q).join(", ")});`,
      ],
      declarations: target.fields.map((each) => each.declaration),
    };
  }
  const parsed = parseDeclarations([`${field.declaration}^`], {
    ...contextFor(invocation, root),
    takenColumns: ownerColumnsOf(target.source),
  });
  if (!parsed.ok) return parsed;
  const made = scoped(target, parsed.value[0]!);
  return {
    ok: true,
    statements: [
      ...existing.map((index) => `DROP INDEX IF EXISTS ${index};`),
      ...indexesOf(target, made),
    ],
    declarations: target.fields.map((each) =>
      each === field ? made.declaration : each.declaration,
    ),
  };
}
