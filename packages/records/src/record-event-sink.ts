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
}
