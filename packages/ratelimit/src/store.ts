/**
 * Where a limiter keeps its counters. `increment` must be atomic: two concurrent calls for one
 * key and window must give two different counts (one statement, or one synchronous step).
 */
export interface RateLimitStore {
  /**
   * Adds one attempt to the counter of `key` in the window starting at `windowStart` (epoch
   * ms) and returns the count including it. Counters of windows that ended may be dropped.
   */
  increment(key: string, windowStart: number, windowMs: number): Promise<number>;
}
