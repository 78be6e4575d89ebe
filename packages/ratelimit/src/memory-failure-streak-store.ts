import type { FailureStreak, FailureStreakStore } from "./failure-streak-store.js";

/**
 * Failure streaks in this process's memory: right for one process and for tests. Streaks stay
 * until cleared or {@link MemoryFailureStreakStore.deleteQuietStreaks} runs.
 */
export class MemoryFailureStreakStore implements FailureStreakStore {
  readonly #streaks = new Map<string, FailureStreak>();

  async read(key: string): Promise<FailureStreak | undefined> {
    return this.#streaks.get(key);
  }

  async replace(
    key: string,
    previous: FailureStreak | undefined,
    next: FailureStreak,
  ): Promise<boolean> {
    const stored = this.#streaks.get(key);
    const same =
      stored === undefined || previous === undefined
        ? stored === previous
        : stored.failures === previous.failures &&
          stored.firstAt === previous.firstAt &&
          stored.lastAt === previous.lastAt;
    if (!same) return false;
    this.#streaks.set(key, { ...next });
    return true;
  }

  async clear(key: string): Promise<void> {
    this.#streaks.delete(key);
  }

  /** Deletes the streaks whose last failure was before `before`; returns how many. */
  async deleteQuietStreaks(before: number): Promise<number> {
    let removed = 0;
    for (const [key, streak] of this.#streaks) {
      if (streak.lastAt < before && this.#streaks.delete(key)) removed += 1;
    }
    return removed;
  }

  /** Number of keys with a streak (for tests and metrics). */
  get size(): number {
    return this.#streaks.size;
  }
}
