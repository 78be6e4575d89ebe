import { deleteInBatches, type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { FailureStreak, FailureStreakStore } from "../failure-streak-store.js";

/** Creates `failure_streaks`: one row per throttled key, and an index for their cleanup. */
export const failureStreaksMigration: Migration = {
  id: "0019_tessera_failure_streaks",
  sql: portableDdl(`CREATE TABLE failure_streaks (
  key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  first_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX failure_streaks_last_at ON failure_streaks (last_at)`),
};

interface StreakRow {
  failures: number;
  first_at: number;
  last_at: number;
}

/**
 * Failure streaks in SQL, shared by every process on the database. The compare-and-set is one
 * statement either way: an insert that does nothing when a row appeared meanwhile, or an update
 * conditioned on the row read, so racing attempts each count once.
 */
export class SqlFailureStreakStore implements FailureStreakStore {
  constructor(private readonly database: SqlDatabase) {}

  async read(key: string): Promise<FailureStreak | undefined> {
    const row = await this.database.get<StreakRow>(
      "SELECT failures, first_at, last_at FROM failure_streaks WHERE key = ?",
      [key],
    );
    return row && { failures: row.failures, firstAt: row.first_at, lastAt: row.last_at };
  }

  async replace(
    key: string,
    previous: FailureStreak | undefined,
    next: FailureStreak,
  ): Promise<boolean> {
    const values = [next.failures, next.firstAt, next.lastAt];
    const result = previous
      ? await this.database.run(
          `UPDATE failure_streaks SET failures = ?, first_at = ?, last_at = ?
           WHERE key = ? AND failures = ? AND first_at = ? AND last_at = ?`,
          [...values, key, previous.failures, previous.firstAt, previous.lastAt],
        )
      : await this.database.run(
          `INSERT INTO failure_streaks (key, failures, first_at, last_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (key) DO NOTHING`,
          [key, ...values],
        );
    return result.changes === 1;
  }

  async clear(key: string): Promise<void> {
    await this.database.run("DELETE FROM failure_streaks WHERE key = ?", [key]);
  }

  /**
   * Deletes the streaks whose last failure was before `before` and returns how many, in
   * batches (see `deleteInBatches`); safe to run in several processes at once.
   */
  deleteQuietStreaks(before: number): Promise<number> {
    return deleteInBatches(this.database, {
      table: "failure_streaks",
      rowKey: ["key"],
      where: "last_at < ?",
      params: [before],
    });
  }
}
