import {
  columnDefinitions,
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
import { defaultLiteral, refuseRequiredWithoutValue } from "./existing-rows.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { migrationTarget } from "./migration-target.js";
import { migrationFile } from "./model-module.js";

/**
 * `tessera generate migration add_<columns>_to_<table> <decl>... [--default <value>]`: an ALTER
 * TABLE migration adding the fields' columns (and their indexes) to a table a model module of
 * the app declares, and the declarations appended to that module. Refuses, writing nothing,
 * what the rows already in the table could not hold: a required field gets no made-up value,
 * only the one `--default` gives it, checked by the field's rules (see `defaultLiteral`).
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
  const given = invocation.defaultValue;
  if (given !== undefined && invocation.declarations.length !== 1) {
    return {
      ok: false,
      reason: `--default gives one field its value, and this migration adds ${invocation.declarations.length}`,
      hint: `add that field in a migration of its own: \`tessera generate migration add_<field>_to_${table} <field:type> --default <value>\``,
    };
  }
  const parsed = parseDeclarations(invocation.declarations, {
    ...contextFor(invocation, root),
    graphql: invocation.graphql || source.graphql,
    // With `--default`, the field may be of a type no made-up value would suit (a date, a uuid):
    // the value given is checked against it instead.
    existingTable: given === undefined,
    takenColumns,
  });
  if (!parsed.ok) return parsed;
  // A `^` field of a model with `uniqueScope: "owner"` is unique per owner, as the module says.
  const added = withUniqueScope(parsed.value, source.uniqueScope);
  const attachments = added.find((field) => field.type === "attachments");
  if (attachments) {
    return {
      ok: false,
      reason: `\`${attachments.name}\` is an attachments field: adding one to an existing table is not generated yet`,
      hint: "generate its child table by hand, or declare it when generating the model",
    };
  }
  const fill = given === undefined ? undefined : defaultLiteral(added[0]!, given);
  if (fill && !fill.ok) return fill;
  const withoutValue = fill ? undefined : refuseRequiredWithoutValue(added, table);
  if (withoutValue) return withoutValue;

  const dialect = dialectOf(invocation, env) === "postgres" ? POSTGRES : SQLITE;
  const statements: string[] = [];
  for (const field of added) {
    for (const definition of columnDefinitions(field, dialect)) {
      const withDefault = fill ? withColumnDefault(definition, fill.sql) : definition;
      statements.push(`ALTER TABLE ${quoteIdentifier(table)} ADD COLUMN ${withDefault};`);
    }
    statements.push(...fieldIndexes(table, field, ownerColumnOf(source)));
  }
  const notes = fill
    ? [`the rows already in \`${table}\` get \`${added[0]!.name}\` = ${fill.shown}`]
    : [];

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

/** A column definition whose rows get `sql`: its own DEFAULT (a boolean's, an enum's) replaced. */
function withColumnDefault(definition: string, sql: string): string {
  const own = / DEFAULT (?:'(?:[^']|'')*'|-?\d+)/;
  return own.test(definition)
    ? definition.replace(own, () => ` DEFAULT ${sql}`)
    : `${definition} DEFAULT ${sql}`;
}
