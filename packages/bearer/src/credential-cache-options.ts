import { type Clock, ExpiringCache } from "@tessera/core";

/** How long credentials a store found may be served again without asking it. */
export interface CredentialCacheOptions {
  /**
   * Milliseconds an entry is served without a query: the longest a change made by another
   * process (a deleted user or key) can go unseen here. Changes made through the cached store
   * in this process take effect at once. Default 0: every lookup asks the store.
   */
  readonly maximumStalenessMs?: number | undefined;
  /** Most entries kept, least recently used out first (default 10,000). */
  readonly maximumEntries?: number | undefined;
  readonly clock?: Clock | undefined;
}

/** The cache a credential store keeps under `options` (nothing kept with the default of 0). */
export function credentialCache<K, V>(options: CredentialCacheOptions = {}): ExpiringCache<K, V> {
  return new ExpiringCache({
    maximumAgeMs: options.maximumStalenessMs ?? 0,
    ...(options.maximumEntries === undefined ? {} : { maximumEntries: options.maximumEntries }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
}
