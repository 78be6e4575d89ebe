import type { EmailCodeRecord, EmailCodeStore } from "./email-code-store.js";

/**
 * Emailed sign-in codes in memory, for tests and single-process prototypes. Each method is one
 * synchronous step, so racing requests consume a code once.
 */
export class MemoryEmailCodeStore implements EmailCodeStore {
  readonly #codes = new Map<number, EmailCodeRecord>();

  async issue(userId: number, digest: string, expiresAt: number): Promise<void> {
    this.#codes.set(userId, { digest, expiresAt, failures: 0 });
  }

  async find(userId: number): Promise<EmailCodeRecord | undefined> {
    return this.#codes.get(userId);
  }

  async countAttempt(
    userId: number,
    maximum: number,
    at: number,
  ): Promise<EmailCodeRecord | undefined> {
    const code = this.#codes.get(userId);
    if (!code || code.failures >= maximum || code.expiresAt <= at) return undefined;
    const counted = { ...code, failures: code.failures + 1 };
    this.#codes.set(userId, counted);
    return counted;
  }

  async consume(userId: number, digest: string): Promise<boolean> {
    if (this.#codes.get(userId)?.digest !== digest) return false;
    return this.#codes.delete(userId);
  }

  /** Forgets a deleted user's code, as the SQL table's cascade does. */
  deleteUser(userId: number): void {
    this.#codes.delete(userId);
  }
}
