import { reportHookErrorToStderr } from "@tessera/core";
import {
  type FieldMessages,
  type FormFile,
  type Model,
  ownerTableOf,
  pluralize,
  TAKEN,
  type Upload,
} from "@tessera/fields";
import type { ObjectStorage } from "./object-storage.js";
import { type RecordHookVerdict, recordHookRunner } from "./record-hooks.js";
import type { RecordRoutesOptions } from "./record-options.js";
import type {
  ColumnValues,
  RecordKey,
  RecordRow,
  StoredFile,
  WriteRefusal,
} from "./record-store.js";
import { missingReferences } from "./references.js";
import { attachmentValues, storeFile } from "./stored-files.js";

/**
 * A write that passed, the 422 messages (field → messages) it earned, or `owner-missing`: the
 * owner's user row was deleted while the request was in flight (answer as for bad credentials).
 */
export type WriteResult =
  | { readonly ok: true; readonly row: RecordRow }
  | { readonly ok: false; readonly reason: "invalid"; readonly fields: FieldMessages }
  | { readonly ok: false; readonly reason: "owner-missing" };

/** An update's result: also 404 (`not-found`) and 409 (`stale`). */
export type UpdateResult =
  | WriteResult
  | { readonly ok: false; readonly reason: "not-found" | "stale" };

/**
 * A delete's result: the deleted row, `not-found` (404), or the messages of a `beforeDelete`
 * hook that refused it (answered as a validation failure).
 */
export type RemoveResult =
  | { readonly ok: true; readonly row: RecordRow }
  | { readonly ok: false; readonly reason: "not-found" }
  | { readonly ok: false; readonly reason: "invalid"; readonly fields: FieldMessages };

/**
 * The write steps the JSON, HTML and GraphQL handlers share: reference checks, the model's
 * `before*` hooks, storing uploads, the store call, turning a database refusal into messages,
 * deleting objects no row holds, then the `after*` hooks.
 */
export function recordWrites(options: RecordRoutesOptions) {
  const { model, store } = options;
  const hasFiles = model.fields.some((f) => f.type === "attachment" || f.type === "attachments");
  if (hasFiles && !options.storage) {
    throw new TypeError(`model ${model.name} has attachments: pass an object storage`);
  }
  const clock = options.clock ?? Date.now;
  const tableOf = options.tableOf ?? pluralize;
  const reportStorageError =
    options.onStorageError ??
    ((error: unknown, key: string) =>
      console.error(
        `Could not delete stored object ${key}: ${(error as Error)?.message ?? error}`,
      ));

  const hooks = recordHookRunner(
    model,
    options.hooks,
    options.onHookError ?? reportHookErrorToStderr,
  );

  // Checked above for every model with attachments, the only ones that store files.
  const storage = (): ObjectStorage => options.storage!;

  /** Deletes objects no row holds any more; a failure is reported, not thrown. */
  async function discard(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      try {
        await options.storage?.delete(key);
      } catch (error) {
        reportStorageError(error, key);
      }
    }
  }

  const references = (ownerId: number, values: ColumnValues) =>
    missingReferences(model, store, ownerId, values, tableOf);

  // The owner's row (a user's, an organization's), which a deleted owner takes with it (and, by
  // cascade, its records).
  const ownerTable = ownerTableOf(model);
  const ownerExists = (ownerId: number) => store.exists(ownerId, ownerTable, ownerId);

  /** References that point nowhere: 422, or `owner-missing` when the account itself is gone. */
  async function missingRefusal(ownerId: number, messages: FieldMessages): Promise<WriteResult> {
    if (!(await ownerExists(ownerId))) return OWNER_MISSING;
    return { ok: false, reason: "invalid", fields: messages };
  }

  async function writeRefusal(
    refusal: WriteRefusal,
    ownerId: number,
    values: ColumnValues,
  ): Promise<WriteResult> {
    if (refusal.reason === "taken") {
      return { ok: false, reason: "invalid", fields: takenMessages(model, refusal.columns) };
    }
    // A foreign key caught a row deleted after our checks: the owner, or a referenced row.
    if (!(await ownerExists(ownerId))) return OWNER_MISSING;
    const messages = await references(ownerId, values);
    if (Object.keys(messages).length === 0) {
      throw new Error(`a foreign key of ${model.table} refused a row whose references exist`);
    }
    return { ok: false, reason: "invalid", fields: messages };
  }

  /** Stores single-attachment uploads; their columns join the row's values. */
  async function storeSingles(uploads: readonly Upload<FormFile>[]) {
    const values: Record<string, ColumnValues[string]> = {};
    const keys: string[] = [];
    for (const upload of uploads) {
      if (fieldType(model, upload.field) !== "attachment") continue;
      const stored = await storeFile(storage(), upload.file);
      keys.push(stored.key);
      Object.assign(values, attachmentValues(upload.field, stored));
    }
    return { values, keys };
  }

  /** Adds multi-file uploads to the record `parentId`. */
  async function addFiles(
    ownerId: number,
    parentId: number,
    uploads: readonly Upload<FormFile>[],
  ): Promise<void> {
    for (const upload of uploads) {
      if (fieldType(model, upload.field) !== "attachments") continue;
      await addFile(ownerId, parentId, upload.field, upload.file);
    }
  }

  /** Stores one file of an `attachments` field; undefined when the parent is gone. */
  async function addFile(
    ownerId: number,
    parentId: number,
    field: string,
    file: FormFile,
  ): Promise<RecordRow | undefined> {
    const stored: StoredFile = await storeFile(storage(), file);
    const row = await store.insertFile(ownerId, parentId, field, stored, clock());
    if (!row) await discard([stored.key]);
    return row;
  }

  return {
    clock,
    storage,
    discard,
    addFile,

    /** Checks references, stores the files, inserts; refused writes leave no object behind. */
    async create(
      ownerId: number,
      values: ColumnValues,
      uploads: readonly Upload<FormFile>[] = [],
    ): Promise<WriteResult> {
      const missing = await references(ownerId, values);
      if (Object.keys(missing).length > 0) return missingRefusal(ownerId, missing);
      const verdict = await hooks.beforeCreate(ownerId, values);
      if (verdict) return hookRefusal(verdict);
      const singles = await storeSingles(uploads);
      const all = { ...values, ...singles.values };
      const inserted = await store.insert(ownerId, all, clock());
      if (!inserted.ok) {
        await discard(singles.keys);
        return writeRefusal(inserted, ownerId, all);
      }
      await addFiles(ownerId, inserted.row.id as number, uploads);
      await hooks.afterCreate(ownerId, inserted.row);
      return { ok: true, row: inserted.row };
    },

    /**
     * Checks the changed references, stores the files and updates under the lock version;
     * objects of replaced attachments are deleted once the row no longer holds them.
     */
    async update(
      ownerId: number,
      key: RecordKey,
      values: ColumnValues,
      lockVersion: number | undefined,
      uploads: readonly Upload<FormFile>[] = [],
    ): Promise<UpdateResult> {
      const missing = await references(ownerId, values);
      if (Object.keys(missing).length > 0) return missingRefusal(ownerId, missing);
      if (hooks.needsCurrent("beforeUpdate")) {
        const current = await store.find(ownerId, key);
        if (!current) return { ok: false, reason: "not-found" };
        const verdict = await hooks.beforeUpdate(ownerId, current, values);
        if (verdict) return hookRefusal(verdict);
      }
      const singles = await storeSingles(uploads);
      const all = { ...values, ...singles.values };
      const change = { values: all, now: clock() };
      const updated = await store.update(
        ownerId,
        key,
        lockVersion === undefined ? change : { ...change, lockVersion },
      );
      if (!updated.ok) {
        await discard(singles.keys);
        if (updated.reason === "not-found" || updated.reason === "stale") {
          return { ok: false, reason: updated.reason };
        }
        return writeRefusal(updated, ownerId, all);
      }
      await discard(updated.replacedKeys);
      await addFiles(ownerId, updated.row.id as number, uploads);
      await hooks.afterUpdate(ownerId, updated.row, values);
      return { ok: true, row: updated.row };
    },

    /** Deletes the record, then every object it held; `not-found` when the owner has none. */
    async remove(ownerId: number, key: RecordKey): Promise<RemoveResult> {
      if (hooks.needsCurrent("beforeDelete")) {
        const current = await store.find(ownerId, key);
        if (!current) return { ok: false, reason: "not-found" };
        const verdict = await hooks.beforeDelete(ownerId, current);
        if (verdict) return hookRefusal(verdict);
      }
      const deleted = await store.delete(ownerId, key);
      await discard(deleted.fileKeys);
      if (!deleted.row) return { ok: false, reason: "not-found" };
      await hooks.afterDelete(ownerId, deleted.row);
      return { ok: true, row: deleted.row };
    },
  };
}

const OWNER_MISSING = { ok: false, reason: "owner-missing" } as const;

/** A `before*` hook's refusal, answered as any validation failure is. */
function hookRefusal(verdict: NonNullable<RecordHookVerdict>) {
  return { ok: false, reason: "invalid", fields: verdict.fields } as const;
}

/** The shared write steps of one model's handlers. */
export type RecordWrites = ReturnType<typeof recordWrites>;

function fieldType(model: Model, name: string) {
  return model.fields.find((field) => field.name === name)?.type;
}

/**
 * `has already been taken` on each field whose columns a unique index refused: the column
 * itself, or `<name>_id` for a polymorphic pair (where its other messages go too).
 */
export function takenMessages(model: Model, columns: readonly string[]): FieldMessages {
  const messages: FieldMessages = {};
  for (const column of columns) {
    const field = model.fields.find((each) => each.columns.includes(column));
    const key = field?.type === "polymorphic" ? field.columns.at(-1)! : column;
    messages[key] = [TAKEN];
  }
  return messages;
}
