import { runAfterHook } from "@tessera/core";
import {
  type CreateValuesOf,
  encodeRecord,
  type FieldMessages,
  type Model,
  type RecordOf,
  type UpdateValuesOf,
} from "@tessera/fields";
import type { RecordRow } from "./record-store.js";

/**
 * What a `before*` hook answers: nothing, to let the write go on, or `{ fields }` to refuse it
 * as a validation failure (422 with `fields` in JSON and GraphQL, the form again in HTML).
 */
export type RecordHookVerdict = undefined | { readonly fields: FieldMessages };

/** What `beforeCreate` sees: the owner and the decoded columns about to be inserted. */
export interface BeforeCreateEvent<M extends Model = Model> {
  readonly ownerId: number;
  /** As the body decoded: booleans as 0 or 1, json as its text; attachments not stored yet. */
  readonly values: CreateValuesOf<M>;
}

/** What `beforeUpdate` sees: the record as stored now and the columns about to change. */
export interface BeforeUpdateEvent<M extends Model = Model> {
  readonly ownerId: number;
  /** The record before the change, in its JSON form. */
  readonly record: RecordOf<M>;
  /** Only the columns the request changes, decoded; attachments not stored yet. */
  readonly changes: UpdateValuesOf<M>;
}

/** What `afterUpdate` sees: the record as the update left it, and what was asked to change. */
export interface AfterUpdateEvent<M extends Model = Model> {
  readonly ownerId: number;
  readonly record: RecordOf<M>;
  readonly changes: UpdateValuesOf<M>;
}

/** What `afterCreate`, `beforeDelete` and `afterDelete` see: one record in its JSON form. */
export interface RecordEvent<M extends Model = Model> {
  readonly ownerId: number;
  readonly record: RecordOf<M>;
}

/**
 * Lifecycle hooks of one model's writes, through every record API that writes (JSON, HTML,
 * GraphQL). `before*` run after the request's own validation and may refuse with field
 * messages; a throw there is an error (nothing was written). `after*` run once the write
 * committed and are awaited; a throw there goes to `onHookError` and the answer stays a success.
 * Typed by the model: `RecordHooks<typeof post>` for a model from `defineModel`.
 */
export interface RecordHooks<M extends Model = Model> {
  beforeCreate?(event: BeforeCreateEvent<M>): RecordHookVerdict | Promise<RecordHookVerdict>;
  afterCreate?(event: RecordEvent<M>): unknown;
  beforeUpdate?(event: BeforeUpdateEvent<M>): RecordHookVerdict | Promise<RecordHookVerdict>;
  afterUpdate?(event: AfterUpdateEvent<M>): unknown;
  beforeDelete?(event: RecordEvent<M>): RecordHookVerdict | Promise<RecordHookVerdict>;
  afterDelete?(event: RecordEvent<M>): unknown;
}

/** The name of an `after*` hook, as `onHookError` is told it. */
export type AfterHookName = "afterCreate" | "afterUpdate" | "afterDelete";

/** Runs a model's hooks for the write path: rows in their JSON form, `after*` failures reported. */
export function recordHookRunner(
  model: Model,
  hooks: RecordHooks | undefined,
  reportHookError: (error: unknown, hook: AfterHookName) => void,
) {
  const recordOf = (row: RecordRow) => encodeRecord(model.fields, row);

  const after = <E>(
    name: AfterHookName,
    hook: ((event: E) => unknown) | undefined,
    event: () => E,
  ) => runAfterHook(hooks, name, hook, event, reportHookError);

  return {
    /** Whether `beforeUpdate` / `beforeDelete` want the current record (one more read). */
    needsCurrent: (hook: "beforeUpdate" | "beforeDelete") => hooks?.[hook] !== undefined,

    beforeCreate: async (ownerId: number, values: CreateValuesOf<Model>) =>
      hooks?.beforeCreate ? await hooks.beforeCreate({ ownerId, values }) : undefined,

    beforeUpdate: async (ownerId: number, current: RecordRow, changes: UpdateValuesOf<Model>) =>
      hooks?.beforeUpdate
        ? await hooks.beforeUpdate({ ownerId, record: recordOf(current), changes })
        : undefined,

    beforeDelete: async (ownerId: number, current: RecordRow) =>
      hooks?.beforeDelete
        ? await hooks.beforeDelete({ ownerId, record: recordOf(current) })
        : undefined,

    afterCreate: (ownerId: number, row: RecordRow) =>
      after("afterCreate", hooks?.afterCreate, () => ({ ownerId, record: recordOf(row) })),

    afterUpdate: (ownerId: number, row: RecordRow, changes: UpdateValuesOf<Model>) =>
      after("afterUpdate", hooks?.afterUpdate, () => ({ ownerId, record: recordOf(row), changes })),

    afterDelete: (ownerId: number, row: RecordRow) =>
      after("afterDelete", hooks?.afterDelete, () => ({ ownerId, record: recordOf(row) })),
  };
}
