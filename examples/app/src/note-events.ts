import { encodeRecord, type Model } from "@tessera/fields";
import { MAXIMUM_PAYLOAD_BYTES, type OutboundWebhooks } from "@tessera/outbound";
import type {
  DeletedRecord,
  InsertOutcome,
  RecordChange,
  RecordKey,
  RecordStore,
  UpdateOutcome,
} from "@tessera/records";
import { SqlRecordStore } from "@tessera/records/sql";
import type { SqlDatabase } from "@tessera/sql";

/** The event types of one model's writes: `note.created`, `note.updated`, `note.deleted`. */
export interface ModelEventTypes {
  readonly created: string;
  readonly updated: string;
  readonly deleted: string;
}

/**
 * The record as an event's `data`; one too large for a webhook (a note may hold 2,000,000
 * characters, an event 256 KiB) goes as `{ id, truncated: true }`, for the receiver to fetch
 * from the API, rather than fail the write it reports.
 */
function eventData(record: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const bytes = new TextEncoder().encode(JSON.stringify(record)).length;
  return bytes <= MAXIMUM_PAYLOAD_BYTES ? record : { id: record.id, truncated: true };
}

/** Carries a refused write out of its transaction, so that it rolls back. */
class RefusedWrite<T> {
  constructor(readonly outcome: T) {}
}

/**
 * A record store whose writes tell the owner's webhook endpoints: each insert, update and
 * delete runs in one transaction with `send`, so the event (its message and its deliveries in
 * the outbox) exists exactly when the change does, after a crash too. `data` is the record as
 * the JSON API shows it (for a delete, as it was). Reads go to the database as they are.
 *
 * Written as a store rather than a records hook: `after*` hooks run once the write has
 * committed, and a crash between the two would lose the event.
 */
export function eventSendingRecordStore(
  database: SqlDatabase,
  model: Model,
  outbound: OutboundWebhooks<SqlDatabase>,
  types: ModelEventTypes,
): RecordStore {
  const reads = new SqlRecordStore(database, model);
  // Handed to `send` as a function: a write whose owner has no endpoint encodes nothing.
  const recordOf = (row: Readonly<Record<string, unknown>>) =>
    eventData(encodeRecord(model.fields, row));

  /** Runs `write` in a transaction that commits only when `kept` says the outcome is a change. */
  async function inTransaction<T>(
    write: (store: SqlRecordStore, transaction: SqlDatabase) => Promise<T>,
    kept: (outcome: T) => boolean,
  ): Promise<T> {
    try {
      return await database.transaction(async (transaction) => {
        const outcome = await write(new SqlRecordStore(transaction, model), transaction);
        // A refusal rolls back: on PostgreSQL a refused statement leaves the transaction
        // unusable, and nothing of it is to be kept anyway.
        if (!kept(outcome)) throw new RefusedWrite(outcome);
        return outcome;
      });
    } catch (error) {
      if (error instanceof RefusedWrite) return error.outcome as T;
      throw error;
    }
  }

  return {
    list: (ownerId, page) => reads.list(ownerId, page),
    find: (ownerId, key) => reads.find(ownerId, key),
    exists: (ownerId, table, id) => reads.exists(ownerId, table, id),
    listFiles: (ownerId, parentId, field) => reads.listFiles(ownerId, parentId, field),
    insertFile: (ownerId, parentId, field, file, now) =>
      reads.insertFile(ownerId, parentId, field, file, now),
    deleteFile: (ownerId, parentId, field, fileId) =>
      reads.deleteFile(ownerId, parentId, field, fileId),
    deleteFiles: (ownerId, parentId, field) => reads.deleteFiles(ownerId, parentId, field),

    insert: (ownerId, values, now): Promise<InsertOutcome> =>
      inTransaction(
        async (store, transaction) => {
          const outcome = await store.insert(ownerId, values, now);
          if (outcome.ok) {
            await outbound.send(transaction, ownerId, types.created, () => recordOf(outcome.row));
          }
          return outcome;
        },
        (outcome) => outcome.ok,
      ),

    update: (ownerId: number, key: RecordKey, change: RecordChange): Promise<UpdateOutcome> =>
      inTransaction(
        async (store, transaction) => {
          const outcome = await store.update(ownerId, key, change);
          if (outcome.ok) {
            await outbound.send(transaction, ownerId, types.updated, () => recordOf(outcome.row));
          }
          return outcome;
        },
        (outcome) => outcome.ok,
      ),

    delete: (ownerId: number, key: RecordKey): Promise<DeletedRecord> =>
      inTransaction(
        async (store, transaction) => {
          const deleted = await store.delete(ownerId, key);
          const { row } = deleted;
          if (row) await outbound.send(transaction, ownerId, types.deleted, () => recordOf(row));
          return deleted;
        },
        (deleted) => deleted.row !== undefined,
      ),
  };
}
