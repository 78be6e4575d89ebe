import { deleteInBatches, type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import { DEFAULT_RATE_LIMIT } from "../rate-limiter.js";
import type { RateLimitStore } from "../store.js";

/** Creates `rate_limit_counters`: one row per key and window. */
export const rateLimitCountersMigration: Migration = {
  id: "0000_tessera_rate_limit_counters",
  sql: portableDdl(`CREATE TABLE rate_limit_counters (
  key TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
) WITHOUT ROWID`),
};

/**
 * Indexes `rate_limit_counters.window_start`, so the cleanup of ended windows reads only those
 * counters instead of the whole table. A migration of its own: applied ones are never edited.
 */
export const rateLimitWindowIndexMigration: Migration = {
  id: "0000_tessera_rate_limit_counters_window_start",
  sql: "CREATE INDEX rate_limit_counters_window_start ON rate_limit_counters (window_start)",
};

/**
 * Rate-limit counters in SQLite, shared by every process on the file. The increment is one
 * upsert with `RETURNING`, so concurrent attempts each get their own count. Counting never
 * deletes: counters of ended windows stay until {@link SqlRateLimitStore.deleteEndedWindows}
 * runs, which the app schedules outside requests.
 */
export class SqlRateLimitStore implements RateLimitStore {
  constructor(private readonly database: SqlDatabase) {}

  async increment(key: string, windowStart: number, _windowMs: number): Promise<number> {
    const row = await this.database.get<{ count: number }>(
      `INSERT INTO rate_limit_counters (key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
       RETURNING count`,
      [key, windowStart],
    );
    return row!.count;
  }

  /**
   * Deletes the counters of windows that ended by `now` and returns how many, in batches of
   * 1,000 rows with a yield between them (see `deleteInBatches`); safe to run in several
   * processes at once. `windowMs` is the longest window of any limiter on this store (default
   * the 60 s of the sign-in limits): a counter goes once its window, so long, is over.
   */
  deleteEndedWindows(now: number, windowMs: number = DEFAULT_RATE_LIMIT.windowMs): Promise<number> {
    return deleteInBatches(this.database, {
      table: "rate_limit_counters",
      rowKey: ["key", "window_start"],
      where: "window_start <= ?",
      params: [now - windowMs],
    });
  }
}
