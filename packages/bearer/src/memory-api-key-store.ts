import type { ApiKeyRecord, ApiKeyStore, NewApiKey } from "./api-key-store.js";

/**
 * API keys in this process's memory: for tests and single-process experiments. It keeps the
 * SQL store's semantics, down to keeping times in whole seconds.
 */
export class MemoryApiKeyStore implements ApiKeyStore {
  readonly #keys = new Map<number, ApiKeyRecord & { readonly digest: string }>();
  #nextId = 1;

  async create(key: NewApiKey): Promise<ApiKeyRecord> {
    for (const stored of this.#keys.values()) {
      if (stored.digest === key.digest) throw new Error("an API key with this digest exists");
    }
    const id = this.#nextId++;
    this.#keys.set(id, {
      id,
      userId: key.userId,
      name: key.name,
      digest: key.digest,
      lastUsedAt: null,
      createdAt: wholeSeconds(key.createdAt),
    });
    return this.#record(id)!;
  }

  async listForUser(userId: number): Promise<ApiKeyRecord[]> {
    return [...this.#keys.values()]
      .filter((stored) => stored.userId === userId)
      .sort((a, b) => b.id - a.id)
      .map((stored) => this.#record(stored.id)!);
  }

  async deleteForUser(userId: number, id: number): Promise<boolean> {
    if (this.#keys.get(id)?.userId !== userId) return false;
    return this.#keys.delete(id);
  }

  async findByDigest(digest: string): Promise<ApiKeyRecord | undefined> {
    for (const stored of this.#keys.values()) {
      if (stored.digest === digest) return this.#record(stored.id);
    }
    return undefined;
  }

  async touchLastUsed(id: number, usedAt: number, staleAt: number): Promise<boolean> {
    const stored = this.#keys.get(id);
    if (!stored) return false;
    if (stored.lastUsedAt !== null && stored.lastUsedAt > wholeSeconds(staleAt)) return false;
    this.#keys.set(id, { ...stored, lastUsedAt: wholeSeconds(usedAt) });
    return true;
  }

  /** A copy without the digest, so callers can neither see nor change what is stored. */
  #record(id: number): ApiKeyRecord | undefined {
    const stored = this.#keys.get(id);
    if (!stored) return undefined;
    const { digest: _digest, ...record } = stored;
    return record;
  }
}

/** The instant rounded down to the second, as the SQL store's timestamp text keeps it. */
function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000;
}
