import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Model } from "./field.js";
import type { Declarations, IsLoose } from "./infer/check.js";
import type {
  CreateInputShape,
  CreateValuesShape,
  LooseRecord,
  LooseValues,
  RecordShape,
  UpdateInputShape,
  UpdateValuesShape,
} from "./infer/shapes.js";
import type { RecordEventAction } from "./model-events.js";

/** The types a model's declarations give; see {@link RecordOf} and the other helpers. */
export interface ModelTypes {
  readonly record: object;
  readonly createInput: object;
  readonly updateInput: object;
  readonly createValues: object;
  readonly updateValues: object;
}

/** The {@link ModelTypes} of declarations; loose (any column) when they are not literal. */
export type TypesOf<D extends Declarations> =
  IsLoose<D> extends true
    ? LooseModelTypes
    : {
        record: RecordShape<D>;
        createInput: CreateInputShape<D>;
        updateInput: UpdateInputShape<D>;
        createValues: CreateValuesShape<D>;
        updateValues: UpdateValuesShape<D>;
      };

/** The {@link ModelTypes} of a model whose declarations are not known at compile time. */
export type LooseModelTypes = {
  record: LooseRecord;
  createInput: LooseRecord;
  updateInput: LooseRecord;
  createValues: LooseValues;
  updateValues: LooseValues;
};

/**
 * A model from `defineModel`: a {@link Model} that also knows its types from its declarations,
 * and validates JSON bodies through Standard Schema v1 (Hono's validator, tRPC, form libraries).
 * Every `DefinedModel` is assignable to the loose one, `DefinedModel` without an argument.
 * `create` and `update` are not enumerable, nor `events` when none are declared: the model
 * equals a plain `{ name, table, fields }` (plus `events` when declared), and a spread copy of
 * it is a plain {@link Model} (type it so).
 */
export interface DefinedModel<T extends ModelTypes = LooseModelTypes> extends Model {
  /**
   * A create body, decoded as `decodeJsonCreate` decodes it: the value is the columns to insert
   * (booleans as 0 or 1, json as its text, a new `public_id`), the issues its 400 reason or
   * every 422 message, each with the key as its path.
   */
  readonly create: StandardSchemaV1<T["createInput"], T["createValues"]>;
  /**
   * An update body, decoded as `decodeJsonUpdate` decodes it: the value is the columns to change,
   * plus `lock_version` when it was sent (compare it with the stored one: a stale one is a 409).
   * Needs no current record: a missing key keeps the stored value.
   */
  readonly update: StandardSchemaV1<T["updateInput"], T["updateValues"]>;
  /** The writes that send an event, in `created`, `updated`, `deleted` order; empty for none. */
  readonly events: readonly RecordEventAction[];
  /** Never set: carries the types for {@link RecordOf} and the other helpers. */
  readonly "~types"?: T;
}

/** The types of a model; loose for a plain {@link Model}. */
type TypesOfModel<M extends Model> = M extends { readonly "~types"?: infer T }
  ? T extends ModelTypes
    ? T
    : LooseModelTypes
  : LooseModelTypes;

/**
 * The JSON form of a model's record (`encodeRecord`):
 * `RecordOf<typeof post>` is `{ id: number; title: string; views: number | null; ... }`.
 */
export type RecordOf<M extends Model> = TypesOfModel<M>["record"];

/** A JSON create body of the model: required fields required, optional ones optional and nullable. */
export type CreateInputOf<M extends Model> = TypesOfModel<M>["createInput"];

/** A JSON update body of the model: every key optional, nullable where null clears the field. */
export type UpdateInputOf<M extends Model> = TypesOfModel<M>["updateInput"];

/** The columns a create body decodes to (`model.create`'s output). */
export type CreateValuesOf<M extends Model> = TypesOfModel<M>["createValues"];

/** The columns an update body decodes to, `lock_version` included when sent (`model.update`'s output). */
export type UpdateValuesOf<M extends Model> = TypesOfModel<M>["updateValues"];

export type { LooseRecord, LooseValues };
