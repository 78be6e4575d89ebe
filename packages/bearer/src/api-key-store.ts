/** An API key as every store returns it: no secret, no digest. Times are epoch milliseconds. */
export interface ApiKeyRecord {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  /** Null until the key is first used; then moved forward at most once an hour. */
  readonly lastUsedAt: number | null;
  readonly createdAt: number;
}

/** The JSON form of an API key: snake_case, times as UTC text `YYYY-MM-DD HH:MM:SS`. */
export interface ApiKeyJson {
  readonly id: number;
  readonly user_id: number;
  readonly name: string;
  readonly last_used_at: string | null;
  readonly created_at: string;
}

/** What {@link ApiKeyStore.create} stores. */
export interface NewApiKey {
  readonly userId: number;
  /** Already validated and trimmed. */
  readonly name: string;
  /** `sha256Hex` of the secret: the only trace of the secret that is kept. */
  readonly digest: string;
  /** Creation time, epoch milliseconds. */
  readonly createdAt: number;
}

/**
 * Where API keys live. Times are passed in and returned as epoch milliseconds, so stores hold
 * no clock; a store may keep whole seconds (rounding down). Each method is one statement: revocation and the `last_used_at`
 * throttle stay correct under concurrent requests.
 */
export interface ApiKeyStore {
  /** Stores a key; the digest is unique. */
  create(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The user's keys, newest first. */
  listForUser(userId: number): Promise<ApiKeyRecord[]>;
  /**
   * Deletes key `id` only if it belongs to `userId` (both in the one statement); false when the
   * user has no such key, so another user's key is answered exactly like a missing one.
   */
  deleteForUser(userId: number, id: number): Promise<boolean>;
  /** The key whose digest this is. A lookup by digest never compares secrets. */
  findByDigest(digest: string): Promise<ApiKeyRecord | undefined>;
  /**
   * Sets `last_used_at` to `usedAt` when it is null or at or before `staleAt`, in one
   * conditional update; returns whether it wrote. The caller passes `usedAt` minus an hour as
   * `staleAt`, which is what writes at most once an hour.
   */
  touchLastUsed(id: number, usedAt: number, staleAt: number): Promise<boolean>;
}
