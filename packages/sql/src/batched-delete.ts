import type { SqlDatabase, SqlValue } from "./database.js";

/** Rows one cleanup statement deletes at most. */
export const CLEANUP_BATCH_SIZE = 1000;

/** What {@link deleteInBatches} deletes. Every part is the store's own SQL, never input. */
export interface BatchedDelete {
  readonly table: string;
  /** The columns of the table's primary key (PostgreSQL has no `rowid`). */
  readonly rowKey: readonly string[];
  /** The condition of the rows to delete, served by an index so a batch reads only its rows. */
  readonly where: string;
  readonly params: readonly SqlValue[];
  readonly batchSize?: number | undefined;
}

/**
 * Deletes the rows matching `where`, at most `batchSize` (1,000) per statement, and returns how
 * many it deleted. Between statements it yields to the event loop, so requests on this
 * connection, and other processes on the file, get their turn: each statement is its own short
 * write. Two processes running it at once delete different rows, and their counts add up to the
 * rows deleted, since a row is counted only by the statement that removed it.
 */
export async function deleteInBatches(
  database: SqlDatabase,
  { table, rowKey, where, params, batchSize = CLEANUP_BATCH_SIZE }: BatchedDelete,
): Promise<number> {
  const columns = rowKey.join(", ");
  const sql = `DELETE FROM ${table} WHERE (${columns}) IN
    (SELECT ${columns} FROM ${table} WHERE ${where} LIMIT ${Math.trunc(batchSize)})`;
  let deleted = 0;
  for (;;) {
    const { changes } = await database.run(sql, params);
    deleted += changes;
    if (changes < batchSize) return deleted;
    // setTimeout rather than setImmediate: the driver shape also serves Workers (D1).
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
