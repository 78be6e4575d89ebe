import type { EmailChangeStore, NewEmailChange, PendingEmailChange } from "./email-change-store.js";

interface StoredChange extends PendingEmailChange {
  readonly digest: string;
}

/**
 * Pending email changes in memory, for tests and single-process prototypes: one per user, and
 * `consume` takes a change in one synchronous step, so racing requests get it once.
 */
export class MemoryEmailChangeStore implements EmailChangeStore {
  /** By user id: a request replaces the user's pending change. */
  readonly #changes = new Map<number, StoredChange>();

  async request(change: NewEmailChange): Promise<void> {
    this.#changes.set(change.userId, {
      userId: change.userId,
      newEmail: change.newEmail,
      digest: change.digest,
      expiresAt: change.expiresAt,
    });
  }

  async consume(digest: string): Promise<PendingEmailChange | undefined> {
    const found = this.#find(digest);
    if (found) this.#changes.delete(found.userId);
    return found && pending(found);
  }

  async peek(digest: string): Promise<PendingEmailChange | undefined> {
    const found = this.#find(digest);
    return found && pending(found);
  }

  #find(digest: string): StoredChange | undefined {
    for (const change of this.#changes.values()) if (change.digest === digest) return change;
    return undefined;
  }
}

function pending(change: StoredChange): PendingEmailChange {
  return { userId: change.userId, newEmail: change.newEmail, expiresAt: change.expiresAt };
}
