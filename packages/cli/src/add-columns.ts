import {
  columnDefinitions,
  type Field,
  fieldIndexes,
  ownerColumnOf,
  ownerColumnsOf,
  POSTGRES,
  parseDeclarations,
  quoteIdentifier,
  SQLITE,
  withUniqueScope,
} from "@tessera/fields";
import { nextMigrationNames } from "./app-folder.js";
import { contextFor, dialectOf, type GeneratorEnvironment, type Outcome } from "./commands.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { migrationTarget } from "./migration-target.js";
import { migrationFile } from "./model-module.js";

/**
 * What a required column gets on the rows already in the table, by type. The parser refuses
 * the types with no right value for every row (a date, a uuid, a reference…) when they are
 * added to an existing table; booleans, enums and lock versions declare their own default.
 */
const EXISTING_ROWS_GET: Partial<Record<Field["type"], { sql: string; shown: string }>> = {
  string: { sql: "''", shown: "an empty string" },
  text: { sql: "''", shown: "an empty string" },
  rich_text: { sql: "''", shown: "an empty string" },
  integer: { sql: "0", shown: "0" },
  float: { sql: "0", shown: "0" },
  decimal: { sql: "'0'", shown: "0" },
  json: { sql: "'{}'", shown: "{}" },
};
const OWN_DEFAULT: ReadonlySet<Field["type"]> = new Set(["boolean", "enum", "lock_version"]);

/**
 * `tessera generate migration add_<columns>_to_<table> <decl>...`: an ALTER TABLE migration
 * adding the fields' columns (and their indexes) to a table a model module of the app declares,
 * and the declarations appended to that module. Refuses, writing nothing, what the rows already
 * in the table could not hold.
 */
export function generateAddColumns(
  invocation: Invocation,
  root: string,
  table: string,
  command: string,
  env: GeneratorEnvironment,
): Outcome {
  const target = migrationTarget(invocation, root, table);
  if (!target.ok) return target;
  const { source } = target;
  // The owner's columns (`user_id`, or `organization_id` and `created_by`) are the table's.
  const takenColumns = [
    ...ownerColumnsOf(source),
    ...target.fields.flatMap((field) => [field.name, ...field.columns]),
  ];
  const parsed = parseDeclarations(invocation.declarations, {
    ...contextFor(invocation, root),
    graphql: invocation.graphql || source.graphql,
    existingTable: true,
    takenColumns,
  });
  if (!parsed.ok) return parsed;
  // A `^` field of a model with `uniqueScope: "owner"` is unique per owner, as the module says.
  const added = withUniqueScope(parsed.value, source.uniqueScope);

  const dialect = dialectOf(invocation, env) === "postgres" ? POSTGRES : SQLITE;
  const statements: string[] = [];
  const notes: string[] = [];
  for (const field of added) {
    if (field.type === "attachments") {
      return {
        ok: false,
        reason: `\`${field.name}\` is an attachments field: adding one to an existing table is not generated yet`,
        hint: "generate its child table by hand, or declare it when generating the model",
      };
    }
    // A required field of a type no row could be given was refused when parsed (existingTable).
    const fill =
      field.optional || OWN_DEFAULT.has(field.type) ? undefined : EXISTING_ROWS_GET[field.type];
    for (const definition of columnDefinitions(field, dialect)) {
      const withDefault = fill ? `${definition} DEFAULT ${fill.sql}` : definition;
      statements.push(`ALTER TABLE ${quoteIdentifier(table)} ADD COLUMN ${withDefault};`);
    }
    statements.push(...fieldIndexes(table, field, ownerColumnOf(source)));
    if (fill) notes.push(`the rows already in \`${table}\` get \`${field.name}\` = ${fill.shown}`);
  }

  const [migrationPath] = nextMigrationNames(root, [invocation.migration!]);
  return applyFileChanges(
    root,
    {
      created: [[migrationPath!, migrationFile(`${statements.join("\n")}\n`, command)]],
      updated: [
        [
          target.path,
          source.withDeclarations([
            ...source.declarations,
            ...added.map((field) => field.declaration),
          ]),
        ],
      ],
      notes,
    },
    invocation,
  );
}
