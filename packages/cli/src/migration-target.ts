import { type Field, ownerColumnsOf, parseDeclarations, withUniqueScope } from "@tessera/fields";
import { migrationCreates } from "./app-folder.js";
import { contextFor, type Outcome } from "./commands.js";
import type { Invocation } from "./invocation.js";
import { type ModelSource, modelOfTable } from "./model-source.js";

/** The model whose table a migration changes: its module, and its fields as declared. */
export interface MigrationTarget {
  readonly ok: true;
  readonly table: string;
  /** `src/models/<name>.ts`. */
  readonly path: string;
  readonly source: ModelSource;
  /** Its fields, with the model's unique scope (`uniqueScope: "owner"`) as `defineModel` gives it. */
  readonly fields: readonly Field[];
}

/**
 * The model module of `table`, read back and parsed (its owner's columns taken, as they are its
 * table's); a refusal when there is none to change.
 */
export function migrationTarget(
  invocation: Invocation,
  root: string,
  table: string,
): MigrationTarget | Extract<Outcome, { ok: false }> {
  const model = modelOfTable(root, table);
  if (!model) {
    return {
      ok: false,
      reason: `no model of the app has the table \`${table}\``,
      hint: migrationCreates(root, table)
        ? "the table has no model module: change it with a migration you write"
        : "generate the model first: `tessera generate model <name> <name:type>...`",
    };
  }
  const source = model.source;
  const parsed =
    source &&
    parseDeclarations(source.declarations, {
      ...contextFor(invocation, root),
      takenColumns: ownerColumnsOf(source),
    });
  if (!source || !parsed?.ok) {
    return {
      ok: false,
      reason: `\`${model.path}\` is not in the form the generator writes`,
      hint: "change its defineModel call by hand, and write the migration yourself",
    };
  }
  const fields = withUniqueScope(parsed.value, source.uniqueScope);
  return { ok: true, table, path: model.path, source, fields };
}
