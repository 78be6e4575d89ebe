/**
 * The listeners of one outbox object's enqueues (see `Outbox.onEnqueue`). A listener that
 * throws is not the enqueuer's problem: its error is dropped, and the item is written anyway.
 */
export class EnqueueSignal {
  readonly #listeners = new Set<(queue: string) => void>();

  /** Adds `listener`; returns the function that removes it. */
  subscribe(listener: (queue: string) => void): () => void {
    // Wrapped, so that the same function subscribed twice is two subscriptions.
    const entry = (queue: string) => listener(queue);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Tells every listener that `queue` has a new item. */
  notify(queue: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(queue);
      } catch {
        // A runner's wake-up failing must not fail the write that already happened.
      }
    }
  }
}
