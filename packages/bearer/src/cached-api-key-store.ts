import type { ExpiringCache } from "@tessera/core";
import type { ApiKeyRecord, ApiKeyStore, NewApiKey } from "./api-key-store.js";
import { type CredentialCacheOptions, credentialCache } from "./credential-cache-options.js";

/**
 * An {@link ApiKeyStore} that remembers keys found by digest for `maximumStalenessMs`, so a
 * request with a known key makes no query. A key deleted through this store stops working at
 * once in this process; one deleted by another process (another worker, another machine), or
 * whose user was deleted, at most `maximumStalenessMs` later, as the user is checked apart.
 * With the default of 0 every lookup asks the store.
 */
export class CachedApiKeyStore implements ApiKeyStore {
  readonly #keys: ExpiringCache<string, ApiKeyRecord>;

  constructor(
    private readonly store: ApiKeyStore,
    options: CredentialCacheOptions = {},
  ) {
    this.#keys = credentialCache(options);
  }

  create(key: NewApiKey): Promise<ApiKeyRecord> {
    return this.store.create(key);
  }

  listForUser(userId: number): Promise<ApiKeyRecord[]> {
    return this.store.listForUser(userId);
  }

  // Each change forgets the key once it is written: a lookup that read the row before then is
  // not kept (see ExpiringCache.getOrLoad), and any lookup after it reads the new row.

  async deleteForUser(userId: number, id: number): Promise<boolean> {
    try {
      return await this.store.deleteForUser(userId, id);
    } finally {
      this.#keys.deleteWhere((key) => key.id === id);
    }
  }

  findByDigest(digest: string): Promise<ApiKeyRecord | undefined> {
    return this.#keys.getOrLoad(digest, () => this.store.findByDigest(digest));
  }

  async touchLastUsed(id: number, usedAt: number, staleAt: number): Promise<boolean> {
    try {
      return await this.store.touchLastUsed(id, usedAt, staleAt);
    } finally {
      // The cached copy's last use is older than staleAt: reread it, or every request would
      // try to write again.
      this.#keys.deleteWhere((key) => key.id === id);
    }
  }
}
