import type { ColumnRead } from "./column-read.js";
import type { Field } from "./field.js";
import { MUST_EXIST } from "./messages.js";

/**
 * The two inputs of a polymorphic field as fields of their own: `<name>_type`, an enum of the
 * model names, and `<name>_id`, a row id read like a reference.
 */
export function polymorphicParts(field: Field): readonly [Field, Field] {
  const [typeColumn = `${field.name}_type`, idColumn = `${field.name}_id`] = field.columns;
  return [
    { ...field, name: typeColumn, type: "enum", columns: [typeColumn] },
    { ...field, name: idColumn, type: "references", args: [], columns: [idColumn] },
  ];
}

/**
 * Joins the reads of a pair. The two columns are written together: one without the other
 * cannot point to a row, which is `must exist` on `<name>_id`.
 */
export function joinPair(
  field: Field,
  typeRead: ColumnRead,
  idRead: ColumnRead,
): ReadonlyArray<readonly [string, ColumnRead]> {
  const [typeColumn, idColumn] = field.columns as readonly [string, string];
  if (typeRead.ok && idRead.ok && (typeRead.value === null) !== (idRead.value === null)) {
    return [[idColumn, { ok: false, status: 422, messages: [MUST_EXIST] }]];
  }
  return [
    [typeColumn, typeRead],
    [idColumn, idRead],
  ];
}
