import { generateAddColumns } from "./add-columns.js";
import { FOREIGN_KEYS_OFF, nextMigrationNames } from "./app-folder.js";
import { dialectOf, type GeneratorEnvironment, type Outcome } from "./commands.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { migrationTarget } from "./migration-target.js";
import { migrationFile } from "./model-module.js";
import { indexField, removeFields, renameField, type TableChange } from "./table-changes.js";

const TABLE = "([a-z][a-z0-9_]*)";
const ADD_INDEX = new RegExp(`^add_index_to_${TABLE}$`);
const ADD_COLUMNS = new RegExp(`^add_([a-z0-9_]+?)_to_${TABLE}$`);
const REMOVE = new RegExp(`^remove_([a-z0-9_]+?)_from_${TABLE}$`);
const RENAME = new RegExp(`^rename_([a-z][a-z0-9_]*?)_to_([a-z][a-z0-9_]*?)_in_${TABLE}$`);

/**
 * `tessera generate migration <name> ...`, by the name's form: `add_<columns>_to_<table>
 * <decl>...`, `remove_<columns>_from_<table> <field>...`, `rename_<old>_to_<new>_in_<table>`,
 * `add_index_to_<table> <field>[^]`. Each writes the migration and changes the table's model
 * module to match.
 */
export function generateMigration(
  invocation: Invocation,
  root: string,
  command: string,
  env: GeneratorEnvironment,
): Outcome {
  const name = invocation.migration ?? "";
  const args = invocation.declarations;
  const indexTable = ADD_INDEX.exec(name)?.[1];
  const addTable = ADD_COLUMNS.exec(name)?.[2];
  const removeTable = REMOVE.exec(name)?.[2];
  const rename = RENAME.exec(name);
  if (addTable !== undefined && indexTable === undefined) {
    return generateAddColumns(invocation, root, addTable, command, env);
  }
  const table = indexTable ?? removeTable ?? rename?.[3];
  if (table === undefined) {
    return {
      ok: false,
      reason: `unknown migration \`${name}\``,
      hint: "name it `add_<columns>_to_<table>`, `remove_<columns>_from_<table>`, `rename_<old>_to_<new>_in_<table>` or `add_index_to_<table>`",
    };
  }
  if (invocation.defaultValue !== undefined) {
    return {
      ok: false,
      reason: "--default applies to `add_<column>_to_<table>` migrations only",
      hint: "it gives the rows already in the table their value of the required field added",
    };
  }
  const target = migrationTarget(invocation, root, table);
  if (!target.ok) return target;
  let change: TableChange;
  if (indexTable !== undefined) {
    if (args.length !== 1) {
      return {
        ok: false,
        reason: "an index migration takes one field",
        hint: "write e.g. `tessera generate migration add_index_to_posts slug^` (`^` for unique)",
      };
    }
    change = indexField(invocation, root, target, args[0]!);
  } else if (rename) {
    if (args.length > 0) {
      return {
        ok: false,
        reason: `unexpected \`${args[0]}\``,
        hint: "a rename takes its names from the migration name: `rename_<old>_to_<new>_in_<table>`",
      };
    }
    change = renameField(invocation, root, target, rename[1]!, rename[2]!);
  } else {
    change = removeFields(target, args, dialectOf(invocation, env));
  }
  if (!change.ok) return change;
  const [path] = nextMigrationNames(root, [name]);
  const unchanged = change.declarations.join("\n") === target.source.declarations.join("\n");
  return applyFileChanges(
    root,
    {
      created: [
        [
          path!,
          migrationFile(
            `${[...(change.rebuild ? [FOREIGN_KEYS_OFF] : []), ...change.statements].join("\n")}\n`,
            command,
          ),
        ],
      ],
      updated: unchanged
        ? []
        : [[target.path, target.source.withDeclarations(change.declarations)]],
    },
    invocation,
  );
}
