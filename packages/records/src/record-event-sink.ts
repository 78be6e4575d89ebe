import type { SqlDatabase } from "@tessera/sql";

/**
 * Where a record store's writes send their events, in the write's own transaction.
 * `OutboundWebhooks<SqlDatabase>` of @tessera/outbound is one; a throw rolls the write back.
 */
export interface RecordEventSink {
  send(
    transaction: SqlDatabase,
    ownerId: number,
    type: string,
    data: () => Readonly<Record<string, unknown>>,
  ): Promise<unknown>;
  /**
   * Optional: when the sink can tell cheaply that an event of `type` for `ownerId` goes
   * nowhere, its word for it, read through `database` (the store's, outside any transaction).
   * The write then runs as it would without events, with no transaction, and afterwards
   * `stillUnsubscribed()` must say true; when it says false, something changed meanwhile and
   * the event is sent after all, by `send` in a transaction of its own. Undefined: the write
   * and `send` run in one transaction.
   */
  unsubscribed?(
    database: SqlDatabase,
    ownerId: number,
    type: string,
  ): Promise<{ stillUnsubscribed(): Promise<boolean> } | undefined>;
}
