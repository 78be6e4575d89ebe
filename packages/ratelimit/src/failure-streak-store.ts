/** The failed attempts of one key since its count last started again. */
export interface FailureStreak {
  readonly failures: number;
  /** When the first of them was counted (epoch ms). */
  readonly firstAt: number;
  /** When the last of them was counted (epoch ms). */
  readonly lastAt: number;
}

/**
 * Where a {@link FailureThrottle} keeps its streaks. `replace` is a compare-and-set: it writes
 * `next` only while the stored streak is still exactly `previous` (absent, for `undefined`),
 * so of two attempts racing on one key, one wins and the other reads again; no count is lost
 * across processes.
 */
export interface FailureStreakStore {
  /** The streak of `key`, or undefined when none is kept. */
  read(key: string): Promise<FailureStreak | undefined>;
  /** Writes `next` when the stored streak is `previous`; false when another write came first. */
  replace(key: string, previous: FailureStreak | undefined, next: FailureStreak): Promise<boolean>;
  /** Forgets the streak of `key` (after a success). */
  clear(key: string): Promise<void>;
}
