// Type level: a model's record, create and update types, from its declarations.

import type { ColumnValue } from "../decode-result.js";
import type { JsonValue } from "../encode-record.js";
import type { DeclarationList, Declarations, FieldShapes, IsLoose } from "./check.js";
import type { ColumnShape, ColumnsOf } from "./columns.js";

/** Flattens an intersection into one object type, so editors show the keys. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type Columns<D extends Declarations> = ColumnsOf<FieldShapes<DeclarationList<D>>>;

type WithNull<C extends ColumnShape, T> = C["nullable"] extends true ? T | null : T;

/** `id` unless the model has a public id, which then stands in for it. */
type Id<D extends Declarations> = "public_id" extends Columns<D>["column"]
  ? Record<never, never>
  : { id: number };

/** The JSON record of a loose model: any column, any JSON value. */
export type LooseRecord = Record<string, JsonValue>;

/**
 * The JSON form of a record, as `encodeRecord` writes it: `id` (not with a public id),
 * `user_id` when the table has an owner, every column, the timestamps.
 */
export type RecordShape<D extends Declarations> =
  IsLoose<D> extends true
    ? LooseRecord
    : Simplify<
        Id<D> & { user_id?: number } & {
          [C in Columns<D> as C["column"]]: WithNull<C, C["json"]>;
        } & { created_at: string; updated_at: string }
      >;

/** A create body: required keys for required fields; optional, nullable keys for the others. */
export type CreateInputShape<D extends Declarations> =
  IsLoose<D> extends true
    ? LooseRecord
    : Simplify<
        {
          [C in Columns<D> as C["input"] extends "sent"
            ? C["nullable"] extends true
              ? never
              : C["column"]
            : never]: C["json"];
        } & {
          [C in Columns<D> as C["input"] extends "sent"
            ? C["nullable"] extends true
              ? C["column"]
              : never
            : C["input"] extends "defaulted"
              ? C["column"]
              : never]?: WithNull<C, C["json"]>;
        }
      >;

/**
 * The columns whose input is one of `Inputs`, each typed by its JSON form or its decoded value,
 * nullable where the column is.
 */
type ColumnsTyped<D extends Declarations, Inputs extends string, As extends "json" | "value"> = {
  [C in Columns<D> as C["input"] extends Inputs ? C["column"] : never]: WithNull<C, C[As]>;
};

/** An update body: every key optional, null where it clears; `lock_version` for the stale check. */
export type UpdateInputShape<D extends Declarations> =
  IsLoose<D> extends true
    ? LooseRecord
    : Simplify<Partial<ColumnsTyped<D, "sent" | "defaulted" | "lock", "json">>>;

/** The column values of a loose model. */
export type LooseValues = Record<string, ColumnValue>;

/**
 * What a create body decodes to (`decodeJsonCreate`'s `values`): every column written on
 * create, booleans as 0 or 1 and json as its JSON text, the new public id included.
 */
export type CreateValuesShape<D extends Declarations> =
  IsLoose<D> extends true
    ? LooseValues
    : Simplify<ColumnsTyped<D, "sent" | "defaulted" | "generated", "value">>;

/**
 * What an update body decodes to: the columns it changes (`decodeJsonUpdate`'s `values`), and
 * `lock_version` when the client sent it (`lockVersion`).
 */
export type UpdateValuesShape<D extends Declarations> =
  IsLoose<D> extends true
    ? LooseValues
    : Simplify<Partial<ColumnsTyped<D, "sent" | "defaulted" | "lock", "value">>>;
