import type {
  EmailedTokenPurpose,
  EmailedTokenRecord,
  EmailedTokenStore,
  NewEmailedToken,
} from "./emailed-token-store.js";

interface StoredToken extends EmailedTokenRecord {
  readonly digest: string;
}

/**
 * Emailed tokens in memory, for tests and single-process prototypes: one token per user and
 * purpose, and `consume` takes a token in one synchronous step, so racing requests get it once.
 */
export class MemoryEmailedTokenStore implements EmailedTokenStore {
  /** By `<purpose> <userId>`: issuing replaces the user's previous token of that purpose. */
  readonly #tokens = new Map<string, StoredToken>();

  async issue(token: NewEmailedToken): Promise<void> {
    this.#tokens.set(`${token.purpose} ${token.userId}`, {
      digest: token.digest,
      userId: token.userId,
      expiresAt: token.expiresAt,
    });
  }

  async consume(
    digest: string,
    purpose: EmailedTokenPurpose,
  ): Promise<EmailedTokenRecord | undefined> {
    const found = this.#find(digest, purpose);
    if (!found) return undefined;
    this.#tokens.delete(found.key);
    return { userId: found.token.userId, expiresAt: found.token.expiresAt };
  }

  async peek(
    digest: string,
    purpose: EmailedTokenPurpose,
  ): Promise<EmailedTokenRecord | undefined> {
    const found = this.#find(digest, purpose);
    return found && { userId: found.token.userId, expiresAt: found.token.expiresAt };
  }

  #find(digest: string, purpose: EmailedTokenPurpose) {
    for (const [key, token] of this.#tokens) {
      if (token.digest === digest && key.startsWith(`${purpose} `)) return { key, token };
    }
    return undefined;
  }
}
