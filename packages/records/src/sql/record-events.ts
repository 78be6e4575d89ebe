import type { Model, RecordEventAction } from "@tessera/fields";
import type { SqlDatabase } from "@tessera/sql";
import { recordEventData, recordEventType } from "../record-event-data.js";
import type { RecordEventSink } from "../record-event-sink.js";
import type { RecordRow } from "../record-store.js";

/** Carries a refused write out of its transaction, so that it rolls back. */
class RefusedWrite<T> {
  constructor(readonly outcome: T) {}
}

/**
 * The writes of one model that send an event: each runs in one transaction with its event,
 * so the event exists exactly when the change does, after a crash too (an `after*` hook runs
 * once the write has committed, and a crash between the two would lose it). When the sink
 * says the event goes nowhere (`unsubscribed`), the write runs without a transaction, and the
 * sink confirms after it that nothing changed meanwhile; else the event is sent then.
 */
export class RecordEventWrites {
  readonly #actions: ReadonlySet<RecordEventAction>;

  constructor(
    private readonly database: SqlDatabase,
    private readonly model: Model,
    private readonly sink: RecordEventSink,
  ) {
    this.#actions = new Set(model.events ?? []);
  }

  /** Whether the model declares an event for `action`. */
  sends(action: RecordEventAction): boolean {
    return this.#actions.has(action);
  }

  /**
   * Runs `write` on a transaction and sends the `action` event of the row `changed` finds in
   * its outcome; with no row (a refusal, nothing deleted) it rolls back and sends nothing.
   */
  async write<T>(
    ownerId: number,
    action: RecordEventAction,
    write: (transaction: SqlDatabase) => Promise<T>,
    changed: (outcome: T) => RecordRow | undefined,
  ): Promise<T> {
    const type = recordEventType(this.model, action);
    const unsubscribed = await this.sink.unsubscribed?.(this.database, ownerId, type);
    if (unsubscribed) {
      const outcome = await write(this.database);
      const row = changed(outcome);
      if (row !== undefined && !(await unsubscribed.stillUnsubscribed())) {
        // An endpoint came just before the write or while it ran: the event goes to every
        // endpoint that takes it now. Only a crash between the two commits could lose it.
        const data = () => recordEventData(this.model, row);
        await this.database.transaction((transaction) =>
          this.sink.send(transaction, ownerId, type, data),
        );
      }
      return outcome;
    }
    try {
      return await this.database.transaction(async (transaction) => {
        const outcome = await write(transaction);
        const row = changed(outcome);
        // A refusal rolls back: on PostgreSQL a refused statement leaves the transaction
        // unusable, and nothing of it is to be kept anyway.
        if (row === undefined) throw new RefusedWrite(outcome);
        // A function: an owner with nowhere to send the event gets nothing encoded.
        await this.sink.send(transaction, ownerId, type, () => recordEventData(this.model, row));
        return outcome;
      });
    } catch (error) {
      if (error instanceof RefusedWrite) return error.outcome as T;
      throw error;
    }
  }
}
