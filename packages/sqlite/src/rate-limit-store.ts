import type { RateLimitStore } from "@tessera/ratelimit";
import type { SqlDatabase } from "./driver.js";
import type { Migration } from "./migrations.js";

/** Creates `rate_limit_counters`: one row per key and window. */
export const rateLimitCountersMigration: Migration = {
  id: "0000_tessera_rate_limit_counters",
  sql: `CREATE TABLE rate_limit_counters (
  key TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
) WITHOUT ROWID`,
};

/**
 * Rate-limit counters in SQLite, shared by every process on the file. The increment is one
 * upsert with `RETURNING`, so concurrent attempts each get their own count.
 */
export class SqliteRateLimitStore implements RateLimitStore {
  #sweptBefore = 0;

  constructor(private readonly database: SqlDatabase) {}

  async increment(key: string, windowStart: number, _windowMs: number): Promise<number> {
    if (windowStart > this.#sweptBefore) {
      // Once per window and process: counters of ended windows are never read again.
      this.#sweptBefore = windowStart;
      await this.database.run("DELETE FROM rate_limit_counters WHERE window_start < ?", [
        windowStart,
      ]);
    }
    const row = await this.database.get<{ count: number }>(
      `INSERT INTO rate_limit_counters (key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
      [key, windowStart],
    );
    return row!.count;
  }
}
