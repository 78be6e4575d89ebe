/**
 * The deliveries a runner has under way per fairness key, and which keys have used their
 * share: those the next claim leaves (an item without a key counts toward no share).
 */
export class FairShare {
  readonly #running = new Map<string, number>();

  /** @param perKey deliveries of one key that may run at once. */
  constructor(private readonly perKey: number) {}

  /** Counts a delivery of `key` as started. */
  take(key: string | null): void {
    if (key !== null) this.#running.set(key, (this.#running.get(key) ?? 0) + 1);
  }

  /** Counts a delivery of `key` as ended. */
  release(key: string | null): void {
    if (key === null) return;
    const left = (this.#running.get(key) ?? 1) - 1;
    if (left === 0) this.#running.delete(key);
    else this.#running.set(key, left);
  }

  /** The keys with `perKey` deliveries under way. */
  used(): string[] {
    return [...this.#running].filter(([, count]) => count >= this.perKey).map(([key]) => key);
  }
}
