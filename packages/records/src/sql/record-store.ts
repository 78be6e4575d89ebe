import { formatTimestamp, requireObjectOption } from "@tessera/core";
import {
  attachmentColumns,
  childAttachmentName,
  childTableName,
  type Model,
  ownerColumnOf,
  ownerKindOf,
  quoteIdentifier as q,
  SNAKE_CASE,
} from "@tessera/fields";
import type { ListPage } from "@tessera/http";
import {
  isForeignKeyViolation,
  isUniqueViolation,
  type SqlDatabase,
  type SqlDialectName,
  type SqlValue,
  type UniqueViolationTarget,
  uniqueViolationTarget,
} from "@tessera/sql";
import type { RecordEventSink } from "../record-event-sink.js";
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
} from "../record-store.js";
import { RecordEventWrites } from "./record-events.js";

/** The child table of one `attachments` field, its identifiers already quoted. */
interface ChildTable {
  readonly table: string;
  readonly parent: string;
  /** `"photo_key"`, `"photo_filename"`, `"photo_content_type"`, `"photo_size"`. */
  readonly columns: readonly [string, string, string, string];
  readonly keyColumn: string;
}

/** Options of {@link SqlRecordStore}. */
export interface SqlRecordStoreOptions {
  /**
   * Where the writes the model declares events for (`defineModel`'s `events`) send them:
   * `OutboundWebhooks<SqlDatabase>` of @tessera/outbound, on this same database. Each such
   * insert, update or delete then runs in one transaction with its event; without a sink, or
   * for a model that declares none, writes are single statements and send nothing.
   */
  readonly events?: RecordEventSink | undefined;
  /**
   * The owner id the sink is given for a write's event, from the record's owner: required with
   * `events` for a model owned by an organization, whose ids would otherwise meet users' in the
   * sink (`organizationEndpointOwnerId` of `@tessera/organizations/routes`). A user's model sends
   * under the user's id.
   */
  readonly eventOwner?: ((ownerId: number) => number) | undefined;
}

/**
 * One model's records in SQLite or PostgreSQL. Its SQL is built once from the parsed model,
 * with quoted identifiers; requests only ever supply bound values. Each write is one statement
 * with the owner (and the lock version) in its WHERE clause, so it is safe under concurrent
 * requests; a write that sends an event (see {@link SqlRecordStoreOptions.events}) is that
 * statement and the event in one transaction, and a refused one sends nothing.
 */
export class SqlRecordStore implements RecordStore {
  readonly #table: string;
  /** The quoted owner column: `"user_id"`, or `"organization_id"` for an organization's model. */
  readonly #owner: string;
  /** Whether inserts write `created_by` (an organization's model). */
  readonly #createdBy: boolean;
  /** Columns a write may set: every field column but the store-managed `lock_version`. */
  readonly #columns: readonly string[];
  readonly #publicId: boolean;
  readonly #locked: boolean;
  /** The `<name>_key` column of each single attachment. */
  readonly #attachmentKeys: readonly string[];
  readonly #children: ReadonlyMap<string, ChildTable>;
  /** Which owner column a referenced table has, learned once per table. */
  readonly #ownedTables = new Map<string, Promise<OwnerColumn | undefined>>();
  /** The sink's owner id of a record's owner: see {@link SqlRecordStoreOptions.eventOwner}. */
  readonly #eventOwner: (ownerId: number) => number;
  /** Set only when the model declares events and a sink is given. */
  readonly #events: RecordEventWrites | undefined;

  constructor(
    private readonly database: SqlDatabase,
    private readonly model: Model,
    options: SqlRecordStoreOptions = {},
  ) {
    if (options.events !== undefined) {
      requireObjectOption("SqlRecordStore", options, "events", ["send"], "pass OutboundWebhooks");
    }
    const sendsEvents = options.events !== undefined && (model.events?.length ?? 0) > 0;
    // Given as they are, an organization's ids would reach the user of that number.
    if (sendsEvents && ownerKindOf(model) === "organization" && !options.eventOwner) {
      throw new TypeError(
        `SqlRecordStore: model ${model.name} belongs to organizations: pass \`eventOwner\` (organizationEndpointOwnerId) with \`events\`, so that its events reach the organization's endpoints`,
      );
    }
    this.#eventOwner = options.eventOwner ?? ((ownerId) => ownerId);
    this.#events = sendsEvents
      ? new RecordEventWrites(database, model, options.events!)
      : undefined;
    this.#table = q(model.table);
    this.#owner = q(ownerColumnOf(model));
    this.#createdBy = ownerKindOf(model) === "organization";
    this.#columns = model.fields
      .filter((field) => field.type !== "lock_version")
      .flatMap((field) => field.columns);
    this.#publicId = model.fields.some((field) => field.type === "public_id");
    this.#locked = model.fields.some((field) => field.type === "lock_version");
    this.#attachmentKeys = model.fields
      .filter((field) => field.type === "attachment")
      .map((field) => `${field.name}_key`);
    this.#children = new Map(
      model.fields
        .filter((field) => field.type === "attachments")
        .map((field) => {
          const columns = attachmentColumns(childAttachmentName(field)).map(q) as [
            string,
            string,
            string,
            string,
          ];
          const child: ChildTable = {
            table: q(childTableName(model.name, field)),
            parent: q(`${model.name}_id`),
            columns,
            keyColumn: columns[0],
          };
          return [field.name, child];
        }),
    );
  }

  list(ownerId: number, page: ListPage): Promise<RecordRow[]> {
    // After an id, the owner index is read from that id down: the same cost at any depth.
    if (page.after !== undefined) {
      return this.database.all<RecordRow>(
        `SELECT * FROM ${this.#table} WHERE ${this.#owner} = ? AND "id" < ? ORDER BY "id" DESC LIMIT ?`,
        [ownerId, page.after, page.limit],
      );
    }
    return this.database.all<RecordRow>(
      `SELECT * FROM ${this.#table} WHERE ${this.#owner} = ? ORDER BY "id" DESC LIMIT ? OFFSET ?`,
      [ownerId, page.limit, page.offset],
    );
  }

  find(ownerId: number, key: RecordKey): Promise<RecordRow | undefined> {
    const [keyColumn, keyValue] = this.#key(key);
    return this.database.get<RecordRow>(
      `SELECT * FROM ${this.#table} WHERE ${keyColumn} = ? AND ${this.#owner} = ?`,
      [keyValue, ownerId],
    );
  }

  async insert(ownerId: number, values: ColumnValues, now: number): Promise<InsertOutcome> {
    if (this.#events?.sends("created")) {
      return this.#events.write(
        this.#eventOwner(ownerId),
        "created",
        (transaction) => this.#on(transaction).insert(ownerId, values, now),
        (outcome) => (outcome.ok ? outcome.row : undefined),
      );
    }
    const columns = this.#columns.filter((column) => Object.hasOwn(values, column));
    if (this.#createdBy && Object.hasOwn(values, "created_by")) columns.push("created_by");
    const timestamp = formatTimestamp(now);
    const names = [this.#owner, ...[...columns, "created_at", "updated_at"].map(q)];
    const params: SqlValue[] = [ownerId, ...columns.map((c) => values[c] ?? null), timestamp];
    params.push(timestamp);
    try {
      const row = await this.database.get<RecordRow>(
        `INSERT INTO ${this.#table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) RETURNING *`,
        params,
      );
      return { ok: true, row: row! };
    } catch (error) {
      return this.#refusal(error);
    }
  }

  async update(ownerId: number, key: RecordKey, change: RecordChange): Promise<UpdateOutcome> {
    if (this.#events?.sends("updated")) {
      return this.#events.write(
        this.#eventOwner(ownerId),
        "updated",
        (transaction) => this.#on(transaction).update(ownerId, key, change),
        (outcome) => (outcome.ok ? outcome.row : undefined),
      );
    }
    const columns = this.#columns.filter(
      (column) => column !== "public_id" && Object.hasOwn(change.values, column),
    );
    // Replacing a file: the row must still hold the key we read, or two uploads racing would
    // each delete what they saw and leave one object that no row holds.
    const replacing = this.#attachmentKeys.filter((column) => columns.includes(column));
    const before = replacing.length > 0 ? await this.find(ownerId, key) : undefined;
    if (replacing.length > 0 && !before) return { ok: false, reason: "not-found" };

    const [keyColumn, keyValue] = this.#key(key);
    // Every column appears, kept unless its flag is set: one statement text per model, however
    // many subsets of keys clients send (drivers cache prepared statements by their text). The
    // flag is compared with 1, so it binds as an integer: as a boolean parameter, postgres.js
    // would send the number 1 as false.
    const writable = this.#columns.filter((column) => column !== "public_id");
    const sets = writable.map(
      (column) => `${q(column)} = CASE WHEN ? = 1 THEN ? ELSE ${q(column)} END`,
    );
    const params: SqlValue[] = writable.flatMap((column) =>
      columns.includes(column) ? [1, change.values[column] ?? null] : [0, null],
    );
    if (this.#locked) sets.push(`"lock_version" = "lock_version" + 1`);
    sets.push(`"updated_at" = ?`);
    params.push(formatTimestamp(change.now), keyValue, ownerId);
    const conditions = [`${keyColumn} = ?`, `${this.#owner} = ?`];
    if (this.#locked && change.lockVersion !== undefined) {
      conditions.push(`"lock_version" = ?`);
      params.push(change.lockVersion);
    }
    for (const column of replacing) {
      conditions.push(`${q(column)} IS NOT DISTINCT FROM ?`);
      params.push((before?.[column] as SqlValue | undefined) ?? null);
    }
    let row: RecordRow | undefined;
    try {
      row = await this.database.get<RecordRow>(
        `UPDATE ${this.#table} SET ${sets.join(", ")} WHERE ${conditions.join(" AND ")} RETURNING *`,
        params,
      );
    } catch (error) {
      return this.#refusal(error);
    }
    if (!row) {
      // Nothing matched: the record is not the owner's (404), or it changed meanwhile (409).
      const exists = await this.find(ownerId, key);
      return { ok: false, reason: exists ? "stale" : "not-found" };
    }
    const replacedKeys = replacing
      .map((column) => before?.[column])
      .filter((old, index): old is string => {
        return typeof old === "string" && old !== row[replacing[index]!];
      });
    return { ok: true, row, replacedKeys };
  }

  async delete(ownerId: number, key: RecordKey): Promise<DeletedRecord> {
    if (this.#events?.sends("deleted")) {
      return this.#events.write(
        this.#eventOwner(ownerId),
        "deleted",
        (transaction) => this.#on(transaction).delete(ownerId, key),
        (deleted) => deleted.row,
      );
    }
    const [keyColumn, keyValue] = this.#key(key);
    const owned = `SELECT "id" FROM ${this.#table} WHERE ${keyColumn} = ? AND ${this.#owner} = ?`;
    const fileKeys: string[] = [];
    // Children first and by hand: the foreign-key cascade would drop their keys unseen, and a
    // RETURNING subquery already sees the cascade's result.
    for (const child of this.#children.values()) {
      const files = await this.database.all<Record<string, string>>(
        `DELETE FROM ${child.table} WHERE ${child.parent} IN (${owned}) RETURNING ${child.keyColumn} AS "key"`,
        [keyValue, ownerId],
      );
      fileKeys.push(...files.map((file) => file.key!));
    }
    const row = await this.database.get<RecordRow>(
      `DELETE FROM ${this.#table} WHERE ${keyColumn} = ? AND ${this.#owner} = ? RETURNING *`,
      [keyValue, ownerId],
    );
    for (const column of this.#attachmentKeys) {
      const stored = row?.[column];
      if (typeof stored === "string") fileKeys.push(stored);
    }
    return { row, fileKeys };
  }

  async exists(ownerId: number, table: string, id: number): Promise<boolean> {
    if (!SNAKE_CASE.test(table)) throw new RangeError(`invalid table name ${table}`);
    const owner = await this.#ownerColumnOf(table);
    // Another kind of owner's rows (a user's, from an organization's record) are never ours.
    if (owner !== undefined && q(owner) !== this.#owner) return false;
    const found = await this.database.get(
      owner
        ? `SELECT 1 AS "found" FROM ${q(table)} WHERE "id" = ? AND ${this.#owner} = ?`
        : `SELECT 1 AS "found" FROM ${q(table)} WHERE "id" = ?`,
      owner ? [id, ownerId] : [id],
    );
    return found !== undefined;
  }

  listFiles(ownerId: number, parentId: number, field: string): Promise<RecordRow[]> {
    const child = this.#child(field);
    return this.database.all<RecordRow>(
      `SELECT "file".* FROM ${child.table} AS "file" JOIN ${this.#table} AS "parent" ON "parent"."id" = "file".${child.parent}
       WHERE "file".${child.parent} = ? AND "parent".${this.#owner} = ? ORDER BY "file"."id"`,
      [parentId, ownerId],
    );
  }

  insertFile(
    ownerId: number,
    parentId: number,
    field: string,
    file: StoredFile,
    now: number,
  ): Promise<RecordRow | undefined> {
    const child = this.#child(field);
    const timestamp = formatTimestamp(now);
    const names = [child.parent, ...child.columns, `"created_at"`, `"updated_at"`];
    return this.database.get<RecordRow>(
      `INSERT INTO ${child.table} (${names.join(", ")})
       SELECT ${names.map(() => "?").join(", ")}
       WHERE EXISTS (SELECT 1 FROM ${this.#table} WHERE "id" = ? AND ${this.#owner} = ?) RETURNING *`,
      [
        parentId,
        file.key,
        file.filename,
        file.contentType,
        file.size,
        timestamp,
        timestamp,
        parentId,
        ownerId,
      ],
    );
  }

  deleteFile(
    ownerId: number,
    parentId: number,
    field: string,
    fileId: number,
  ): Promise<RecordRow | undefined> {
    const child = this.#child(field);
    return this.database.get<RecordRow>(
      `DELETE FROM ${child.table} WHERE "id" = ? AND ${child.parent} = ?
       AND EXISTS (SELECT 1 FROM ${this.#table} WHERE "id" = ? AND ${this.#owner} = ?) RETURNING *`,
      [fileId, parentId, parentId, ownerId],
    );
  }

  deleteFiles(ownerId: number, parentId: number, field: string): Promise<RecordRow[]> {
    const child = this.#child(field);
    return this.database.all<RecordRow>(
      `DELETE FROM ${child.table} WHERE ${child.parent} = ?
       AND EXISTS (SELECT 1 FROM ${this.#table} WHERE "id" = ? AND ${this.#owner} = ?) RETURNING *`,
      [parentId, parentId, ownerId],
    );
  }

  /**
   * Every storage key a row of this model holds, of every owner: single attachments and the
   * files of `attachments` fields. For sweeping unreferenced objects, never for a request.
   */
  async referencedFileKeys(): Promise<string[]> {
    const selects = [
      ...this.#attachmentKeys.map(
        (column) =>
          `SELECT ${q(column)} AS "key" FROM ${this.#table} WHERE ${q(column)} IS NOT NULL`,
      ),
      ...[...this.#children.values()].map(
        (child) => `SELECT ${child.keyColumn} AS "key" FROM ${child.table}`,
      ),
    ];
    if (selects.length === 0) return [];
    const rows = await this.database.all<{ key: string }>(selects.join(" UNION ALL "));
    return rows.map((row) => row.key);
  }

  /** The same model's store on a transaction, sending no events: the write of an event's. */
  #on(transaction: SqlDatabase): SqlRecordStore {
    return new SqlRecordStore(transaction, this.model);
  }

  /** The quoted key column and its value; a public id only names records of a model with one. */
  #key(key: RecordKey): [string, SqlValue] {
    if ("publicId" in key) {
      if (!this.#publicId) throw new TypeError(`model ${this.model.name} has no public id`);
      return [`"public_id"`, key.publicId];
    }
    return [`"id"`, key.id];
  }

  #child(field: string): ChildTable {
    const child = this.#children.get(field);
    if (!child) throw new RangeError(`model ${this.model.name} has no attachments ${field}`);
    return child;
  }

  /**
   * The owner column of a referenced table: this model's own when the table has it (an
   * organization's table may also reference a user through a `user_id` field), else the other
   * kind's, else none.
   */
  #ownerColumnOf(table: string): Promise<OwnerColumn | undefined> {
    let owner = this.#ownedTables.get(table);
    if (!owner) {
      owner = this.database
        .all<{ name: OwnerColumn }>(OWNER_COLUMNS_OF[this.database.dialect], [table])
        .then((rows) => {
          const names = rows.map((row) => row.name);
          return names.find((name) => q(name) === this.#owner) ?? names[0];
        });
      this.#ownedTables.set(table, owner);
    }
    return owner;
  }

  /** A constraint error as a refusal; anything else is broken infrastructure and is thrown. */
  #refusal(error: unknown): WriteRefusal {
    if (isForeignKeyViolation(error)) return { ok: false, reason: "missing-reference" };
    if (isUniqueViolation(error)) {
      const columns = uniqueColumns(this.model, uniqueViolationTarget(error));
      if (columns.length > 0) return { ok: false, reason: "taken", columns };
    }
    throw error;
  }
}

/** An owner column a record table may have. */
type OwnerColumn = "user_id" | "organization_id";

/** The owner columns a table (of the connection's schema) has. */
const OWNER_COLUMNS_OF: Record<SqlDialectName, string> = {
  sqlite: `SELECT "name" FROM pragma_table_info(?) WHERE "name" IN ('user_id', 'organization_id')`,
  postgres: `SELECT column_name AS "name" FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ?
    AND column_name IN ('user_id', 'organization_id')`,
};

/**
 * The model's columns a unique violation names: its unique index (`index_posts_on_slug`, as
 * `createTableSql` names them) or SQLite's `posts.slug`. Columns of another table or unknown
 * indexes give nothing, and the error is then rethrown.
 */
export function uniqueColumns(model: Model, target: UniqueViolationTarget): string[] {
  const columns = new Set<string>();
  for (const field of model.fields) {
    const byIndex = target.index === `index_${model.table}_on_${field.columns.join("_and_")}`;
    for (const column of field.columns) {
      if (byIndex || target.columns.includes(`${model.table}.${column}`)) columns.add(column);
    }
  }
  return [...columns];
}
