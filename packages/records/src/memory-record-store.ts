import { formatTimestamp } from "@tessera/core";
import {
  attachmentColumns,
  childAttachmentName,
  childTableName,
  type Field,
  type Model,
  ownerColumnOf,
  ownerKindOf,
} from "@tessera/fields";
import type { ListPage } from "@tessera/http";
import type {
  ColumnValues,
  DeletedRecord,
  InsertOutcome,
  RecordChange,
  RecordKey,
  RecordRow,
  RecordStore,
  StoredFile,
  UpdateOutcome,
  WriteRefusal,
} from "./record-store.js";

interface MemoryTable {
  lastId: number;
  readonly rows: Map<number, Record<string, unknown>>;
}

/**
 * The tables several {@link MemoryRecordStore}s share, as one database would: references are
 * checked against them. Give every model of an app the same instance.
 */
export class MemoryRecordTables {
  readonly #tables = new Map<string, MemoryTable>();

  /** The table of that name, created empty the first time. */
  table(name: string): MemoryTable {
    let table = this.#tables.get(name);
    if (!table) {
      table = { lastId: 0, rows: new Map() };
      this.#tables.set(name, table);
    }
    return table;
  }
}

/**
 * One model's records in memory, for tests and single-process prototypes, answering as the SQL
 * store does: owner-scoped reads and writes, `^` uniqueness (per table, or per owner where the
 * field says so), references that must exist, the lock version, public ids and attachment
 * files. Each method runs without an await inside, so racing requests see each other's
 * writes. Unlike SQL, deleting a record does not cascade to records in other models that
 * reference it. It sends no events: a model's `events` need `SqlRecordStore`, whose writes
 * share a transaction with the sink's.
 */
export class MemoryRecordStore implements RecordStore {
  readonly #table: MemoryTable;
  readonly #children: ReadonlyMap<
    string,
    { table: MemoryTable; parent: string; columns: readonly string[] }
  >;
  readonly #columns: readonly string[];
  readonly #attachmentKeys: readonly string[];
  readonly #locked: boolean;
  /** `user_id`, or `organization_id` for an organization's model. */
  readonly #owner: string;

  constructor(
    private readonly tables: MemoryRecordTables,
    private readonly model: Model,
  ) {
    this.#table = tables.table(model.table);
    this.#owner = ownerColumnOf(model);
    this.#columns = model.fields
      .filter((field) => field.type !== "lock_version")
      .flatMap((field) => field.columns);
    this.#attachmentKeys = model.fields
      .filter((field) => field.type === "attachment")
      .map((field) => `${field.name}_key`);
    this.#locked = model.fields.some((field) => field.type === "lock_version");
    this.#children = new Map(
      model.fields
        .filter((field) => field.type === "attachments")
        .map((field) => [
          field.name,
          {
            table: tables.table(childTableName(model.name, field)),
            parent: `${model.name}_id`,
            columns: attachmentColumns(childAttachmentName(field)),
          },
        ]),
    );
  }

  async list(ownerId: number, { limit, offset, after }: ListPage): Promise<RecordRow[]> {
    return [...this.#table.rows.values()]
      .filter(
        (row) =>
          row[this.#owner] === ownerId && (after === undefined || (row.id as number) < after),
      )
      .sort((a, b) => (b.id as number) - (a.id as number))
      .slice(offset, offset + limit)
      .map(copy);
  }

  async find(ownerId: number, key: RecordKey): Promise<RecordRow | undefined> {
    const row = this.#owned(ownerId, key);
    return row && copy(row);
  }

  async insert(ownerId: number, values: ColumnValues, now: number): Promise<InsertOutcome> {
    const timestamp = formatTimestamp(now);
    const row: Record<string, unknown> = { id: this.#table.lastId + 1, [this.#owner]: ownerId };
    if (ownerKindOf(this.model) === "organization") row.created_by = values.created_by ?? null;
    for (const field of this.model.fields) {
      for (const column of field.columns) row[column] = defaultValue(field);
    }
    for (const column of this.#columns)
      if (Object.hasOwn(values, column)) row[column] = values[column];
    row.created_at = timestamp;
    row.updated_at = timestamp;
    const refusal = this.#refusal(row);
    if (refusal) return refusal;
    this.#table.lastId += 1;
    this.#table.rows.set(row.id as number, row);
    return { ok: true, row: copy(row) };
  }

  async update(ownerId: number, key: RecordKey, change: RecordChange): Promise<UpdateOutcome> {
    const before = this.#owned(ownerId, key);
    if (!before) return { ok: false, reason: "not-found" };
    if (
      this.#locked &&
      change.lockVersion !== undefined &&
      before.lock_version !== change.lockVersion
    ) {
      return { ok: false, reason: "stale" };
    }
    const after: Record<string, unknown> = { ...before };
    for (const column of this.#columns) {
      if (column !== "public_id" && Object.hasOwn(change.values, column)) {
        after[column] = change.values[column];
      }
    }
    if (this.#locked) after.lock_version = (before.lock_version as number) + 1;
    after.updated_at = formatTimestamp(change.now);
    const refusal = this.#refusal(after);
    if (refusal) return refusal;
    this.#table.rows.set(before.id as number, after);
    const replacedKeys = this.#attachmentKeys
      .map((column) => before[column])
      .filter((old, index): old is string => {
        return typeof old === "string" && old !== after[this.#attachmentKeys[index]!];
      });
    return { ok: true, row: copy(after), replacedKeys };
  }

  async delete(ownerId: number, key: RecordKey): Promise<DeletedRecord> {
    const row = this.#owned(ownerId, key);
    if (!row) return { row: undefined, fileKeys: [] };
    const fileKeys: string[] = [];
    for (const child of this.#children.values()) {
      for (const [id, file] of child.table.rows) {
        if (file[child.parent] !== row.id) continue;
        fileKeys.push(file[child.columns[0]!] as string);
        child.table.rows.delete(id);
      }
    }
    this.#table.rows.delete(row.id as number);
    for (const column of this.#attachmentKeys) {
      if (typeof row[column] === "string") fileKeys.push(row[column] as string);
    }
    return { row: copy(row), fileKeys };
  }

  async exists(ownerId: number, table: string, id: number): Promise<boolean> {
    const row = this.tables.table(table).rows.get(id);
    if (row === undefined) return false;
    // Another kind of owner's rows (a user's, from an organization's record) are never ours.
    // This model's own owner column first: an organization's table may reference a user too.
    const owner = [this.#owner, "user_id", "organization_id"].find((column) => column in row);
    return owner === undefined || (owner === this.#owner && row[owner] === ownerId);
  }

  async listFiles(ownerId: number, parentId: number, field: string): Promise<RecordRow[]> {
    const child = this.#child(field);
    if (this.#table.rows.get(parentId)?.[this.#owner] !== ownerId) return [];
    return [...child.table.rows.values()]
      .filter((file) => file[child.parent] === parentId)
      .sort((a, b) => (a.id as number) - (b.id as number))
      .map(copy);
  }

  async insertFile(
    ownerId: number,
    parentId: number,
    field: string,
    file: StoredFile,
    now: number,
  ): Promise<RecordRow | undefined> {
    const child = this.#child(field);
    if (this.#table.rows.get(parentId)?.[this.#owner] !== ownerId) return undefined;
    const timestamp = formatTimestamp(now);
    const [key, filename, contentType, size] = child.columns as [string, string, string, string];
    const row: Record<string, unknown> = {
      id: ++child.table.lastId,
      [child.parent]: parentId,
      [key]: file.key,
      [filename]: file.filename,
      [contentType]: file.contentType,
      [size]: file.size,
      created_at: timestamp,
      updated_at: timestamp,
    };
    child.table.rows.set(row.id as number, row);
    return copy(row);
  }

  async deleteFile(
    ownerId: number,
    parentId: number,
    field: string,
    fileId: number,
  ): Promise<RecordRow | undefined> {
    const child = this.#child(field);
    const file = child.table.rows.get(fileId);
    if (!file || file[child.parent] !== parentId) return undefined;
    if (this.#table.rows.get(parentId)?.[this.#owner] !== ownerId) return undefined;
    child.table.rows.delete(fileId);
    return copy(file);
  }

  async deleteFiles(ownerId: number, parentId: number, field: string): Promise<RecordRow[]> {
    const child = this.#child(field);
    if (this.#table.rows.get(parentId)?.[this.#owner] !== ownerId) return [];
    const deleted: RecordRow[] = [];
    for (const [id, file] of [...child.table.rows].sort(([a], [b]) => a - b)) {
      if (file[child.parent] !== parentId) continue;
      child.table.rows.delete(id);
      deleted.push(copy(file));
    }
    return deleted;
  }

  #owned(ownerId: number, key: RecordKey): Record<string, unknown> | undefined {
    if ("publicId" in key) {
      if (!this.model.fields.some((field) => field.type === "public_id")) {
        throw new TypeError(`model ${this.model.name} has no public id`);
      }
      for (const row of this.#table.rows.values()) {
        if (row.public_id === key.publicId && row[this.#owner] === ownerId) return row;
      }
      return undefined;
    }
    const row = this.#table.rows.get(key.id);
    return row?.[this.#owner] === ownerId ? row : undefined;
  }

  #child(field: string) {
    const child = this.#children.get(field);
    if (!child) throw new RangeError(`model ${this.model.name} has no attachments ${field}`);
    return child;
  }

  /** What the SQL constraints would refuse about this row: a missing reference, a taken value. */
  #refusal(row: Record<string, unknown>): WriteRefusal | undefined {
    for (const field of this.model.fields) {
      const referenced = field.references?.table;
      const value = row[field.columns[0]!];
      if (field.type === "references" && referenced && value !== null && value !== undefined) {
        if (!this.tables.table(referenced).rows.has(value as number)) {
          return { ok: false, reason: "missing-reference" };
        }
      }
    }
    for (const field of this.model.fields) {
      if (!field.unique) continue;
      const taken = [...this.#table.rows.values()].some(
        (other) =>
          other.id !== row.id &&
          (field.uniqueScope !== "owner" || other[this.#owner] === row[this.#owner]) &&
          field.columns.every((column) => row[column] !== null && other[column] === row[column]),
      );
      if (taken) return { ok: false, reason: "taken", columns: field.columns };
    }
    return undefined;
  }
}

/** A column's value when a write does not give it, as the table's DDL defaults it. */
function defaultValue(field: Field): unknown {
  if (field.type === "boolean" || field.type === "lock_version") return 0;
  if (field.type === "enum" && !field.optional) return field.args[0];
  return null;
}

function copy(row: Record<string, unknown>): RecordRow {
  return { ...row } as RecordRow;
}
