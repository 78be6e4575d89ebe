import { type FieldMessages, type Model, MUST_EXIST, pluralize } from "@tessera/fields";
import type { ColumnValues, RecordStore } from "./record-store.js";

/**
 * `must exist` for each reference (`post_id`) and polymorphic pair (on `target_id`) among
 * `values` that points to no row the owner may use: missing, or another user's. Only columns
 * present and not null are checked, so an update checks only what it changes. The table comes
 * from the parsed model (a polymorphic type was already checked against its list).
 */
export async function missingReferences(
  model: Model,
  store: RecordStore,
  ownerId: number,
  values: ColumnValues,
  tableOf: (model: string) => string = pluralize,
): Promise<FieldMessages> {
  const messages: FieldMessages = {};
  for (const field of model.fields) {
    let table: string | undefined;
    let idColumn: string | undefined;
    if (field.type === "references" && field.references) {
      idColumn = field.columns[0]!;
      table = field.references.table;
    } else if (field.type === "polymorphic") {
      const [typeColumn, pairIdColumn] = field.columns as readonly [string, string];
      const type = values[typeColumn];
      idColumn = pairIdColumn;
      table = typeof type === "string" && field.args.includes(type) ? tableOf(type) : undefined;
    }
    if (idColumn === undefined || !Object.hasOwn(values, idColumn)) continue;
    const id = values[idColumn];
    if (id === null || id === undefined) continue;
    const found =
      table !== undefined && typeof id === "number" && (await store.exists(ownerId, table, id));
    if (!found) messages[idColumn] = [MUST_EXIST];
  }
  return messages;
}
