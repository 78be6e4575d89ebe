import { type Clock, systemClock } from "./clock.js";

/** Options of an {@link ExpiringCache}. */
export interface ExpiringCacheOptions {
  /** How long an entry is served after it was stored, in milliseconds; 0 keeps nothing. */
  readonly maximumAgeMs: number;
  /** Most entries kept; the least recently used one goes first. Default 10,000. */
  readonly maximumEntries?: number | undefined;
  readonly clock?: Clock | undefined;
}

interface Entry<V> {
  readonly value: V;
  readonly storedAt: number;
}

/**
 * A map whose entries are served for at most `maximumAgeMs` and whose size is bounded, least
 * recently used out first (a Map keeps insertion order, so a hit moves its key to the end).
 * Written here because it is a dozen lines: lru-cache's Node build loads
 * `node:diagnostics_channel`, which a main entry that runs on Workers must not.
 */
export class ExpiringCache<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  readonly #maximumAgeMs: number;
  readonly #maximumEntries: number;
  readonly #clock: Clock;
  /** Moves on at every deletion, so a load that began before one stores nothing. */
  #generation = 0;

  constructor(options: ExpiringCacheOptions) {
    if (!(options.maximumAgeMs >= 0)) throw new RangeError("maximumAgeMs must be 0 or more");
    this.#maximumAgeMs = options.maximumAgeMs;
    this.#maximumEntries = Math.max(1, options.maximumEntries ?? 10_000);
    this.#clock = options.clock ?? systemClock;
  }

  /** Whether entries are kept at all (`maximumAgeMs` over 0). */
  get enabled(): boolean {
    return this.#maximumAgeMs > 0;
  }

  /** The value stored under `key` while it is young enough; undefined otherwise. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    const age = this.#clock() - entry.storedAt;
    if (age < 0 || age >= this.#maximumAgeMs) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * The value under `key`, or what `load` finds, kept when found. A deletion while `load`
   * runs wins: its result is returned but not kept, so a value read just before it was deleted
   * or changed is never served afterwards.
   */
  async getOrLoad(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.#generation;
    const loaded = await load();
    if (loaded !== undefined && generation === this.#generation) this.set(key, loaded);
    return loaded;
  }

  /** Stores `value` under `key` from now on (nothing when the cache keeps nothing). */
  set(key: K, value: V): void {
    if (!this.enabled) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, storedAt: this.#clock() });
    if (this.#entries.size > this.#maximumEntries) {
      this.#entries.delete(this.#entries.keys().next().value as K);
    }
  }

  /** Forgets `key`. */
  delete(key: K): void {
    this.#generation += 1;
    this.#entries.delete(key);
  }

  /** Forgets every key for which `matches` holds. */
  deleteWhere(matches: (value: V, key: K) => boolean): void {
    this.#generation += 1;
    for (const [key, entry] of this.#entries) {
      if (matches(entry.value, key)) this.#entries.delete(key);
    }
  }
}
