import type { ColumnValue, Row } from "@tessera/fields";
import type { ListPage } from "@tessera/http";

/**
 * A record as the store returns it: column name → value, `id` and the owner's columns
 * (`user_id`, or `organization_id` and `created_by`) included.
 */
export type RecordRow = Row;

/** Column values to write, keyed by column name (only the model's own columns are written). */
export type ColumnValues = Readonly<Record<string, ColumnValue>>;

/**
 * How a route names a record: its integer `id`, or its `public_id` when the model has one
 * (then the integer id is never accepted from a request).
 */
export type RecordKey = { readonly id: number } | { readonly publicId: string };

/** One stored file: the four columns of an attachment, without the field's prefix. */
export interface StoredFile {
  /** The object-storage key: a random token, never the client's filename. */
  readonly key: string;
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
}

/** A write refused by the database itself rather than by validation. */
export type WriteRefusal =
  /** A unique index refused the row; `columns` are the columns it covers. */
  | { readonly ok: false; readonly reason: "taken"; readonly columns: readonly string[] }
  /** A foreign key refused the row: a referenced row vanished after it was checked. */
  | { readonly ok: false; readonly reason: "missing-reference" };

/** What {@link RecordStore.insert} gives. */
export type InsertOutcome = { readonly ok: true; readonly row: RecordRow } | WriteRefusal;

/** What {@link RecordStore.update} gives. */
export type UpdateOutcome =
  | {
      readonly ok: true;
      readonly row: RecordRow;
      /** Storage keys the row held before and no longer holds: delete those objects. */
      readonly replacedKeys: readonly string[];
    }
  /** No such record for this owner (missing, or another user's). */
  | { readonly ok: false; readonly reason: "not-found" }
  /** The sent lock version, or an attachment being replaced, changed meanwhile: a 409. */
  | { readonly ok: false; readonly reason: "stale" }
  | WriteRefusal;

/** What {@link RecordStore.update} writes. */
export interface RecordChange {
  /** Columns to change; a missing column keeps its value. */
  readonly values: ColumnValues;
  /** The version the client saw; the update applies only if it still matches. */
  readonly lockVersion?: number | undefined;
  /** Epoch milliseconds for `updated_at`. */
  readonly now: number;
}

/** What {@link RecordStore.delete} gives. */
export interface DeletedRecord {
  /** The deleted row, or undefined when the owner has no such record. */
  readonly row: RecordRow | undefined;
  /** Every storage key the record held (single attachments and multi-file children). */
  readonly fileKeys: readonly string[];
}

/**
 * Storage of one model's records. Every method is scoped by owner inside its query (`id` and
 * the owner column, `user_id` or `organization_id`, together), so another owner's record
 * behaves exactly like a missing one.
 * Implementations build SQL from the parsed model only, never from request keys.
 */
export interface RecordStore {
  /** The owner's records, newest first: `page.offset` skips, `page.after` starts below that id. */
  list(ownerId: number, page: ListPage): Promise<RecordRow[]>;
  find(ownerId: number, key: RecordKey): Promise<RecordRow | undefined>;
  /**
   * Inserts with the owner column at `ownerId` and both timestamps at `now`; `public_id` comes
   * in `values`, and for an organization's model `created_by` too.
   */
  insert(ownerId: number, values: ColumnValues, now: number): Promise<InsertOutcome>;
  /**
   * Updates in one statement whose WHERE holds the owner, the sent lock version and the
   * current keys of any attachment being replaced; increments `lock_version` when the model
   * has it. A row that did not change is told apart (404 or 409) by an owner-scoped lookup.
   */
  update(ownerId: number, key: RecordKey, change: RecordChange): Promise<UpdateOutcome>;
  /** Deletes the record and its multi-file children, returning every file key they held. */
  delete(ownerId: number, key: RecordKey): Promise<DeletedRecord>;
  /**
   * True when `table` has a row `id` that the owner may point to: owned by `ownerId` when the
   * table has this model's owner column, never when it has the other kind's (`user_id` from an
   * organization's model), else merely existing. `table` comes from the parsed model.
   */
  exists(ownerId: number, table: string, id: number): Promise<boolean>;
  /** The files of an `attachments` field of the owner's record `parentId`, oldest first. */
  listFiles(ownerId: number, parentId: number, field: string): Promise<RecordRow[]>;
  /** Adds a file row, only while the owner's parent row exists (else undefined). */
  insertFile(
    ownerId: number,
    parentId: number,
    field: string,
    file: StoredFile,
    now: number,
  ): Promise<RecordRow | undefined>;
  /** Deletes one file row of the owner's parent and returns it (undefined when none). */
  deleteFile(
    ownerId: number,
    parentId: number,
    field: string,
    fileId: number,
  ): Promise<RecordRow | undefined>;
  /**
   * Deletes every file row of the owner's parent for `field`, in one statement, and returns
   * them (none when the parent is not the owner's). The parent row is left as it is.
   */
  deleteFiles(ownerId: number, parentId: number, field: string): Promise<RecordRow[]>;
}
