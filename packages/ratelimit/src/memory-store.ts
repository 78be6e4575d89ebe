import type { RateLimitStore } from "./store.js";

/**
 * Counters in this process's memory: right for one process and for tests. Ended windows are
 * swept on the way, so memory stays bounded by the number of keys seen in one window.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #counters = new Map<string, { windowStart: number; count: number }>();
  #lastSweep = 0;

  async increment(key: string, windowStart: number, windowMs: number): Promise<number> {
    if (windowStart - this.#lastSweep >= windowMs) this.#sweep(windowStart);
    const counter = this.#counters.get(key);
    if (counter && counter.windowStart === windowStart) return ++counter.count;
    this.#counters.set(key, { windowStart, count: 1 });
    return 1;
  }

  /** Number of keys currently counted (for tests and metrics). */
  get size(): number {
    return this.#counters.size;
  }

  #sweep(currentWindowStart: number): void {
    this.#lastSweep = currentWindowStart;
    for (const [key, counter] of this.#counters) {
      if (counter.windowStart < currentWindowStart) this.#counters.delete(key);
    }
  }
}
