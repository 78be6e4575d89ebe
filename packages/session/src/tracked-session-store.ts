/**
 * One sign-in of a user on one device, as every store returns it: never the token, never its
 * digest. Times are epoch milliseconds, kept at the one-second resolution of stored times (rounded down).
 */
export interface TrackedSession {
  readonly id: number;
  readonly userId: number;
  /** The client address at sign-in, as the app determined it; null when it had none. */
  readonly ipAddress: string | null;
  /** A readable name such as `Firefox 128 on Linux` (see `browserName`). */
  readonly browser: string;
  /** The `User-Agent` header at sign-in, cut to `MAXIMUM_USER_AGENT_LENGTH`; null when absent. */
  readonly userAgent: string | null;
  /** The device's last request; moved forward at most once an hour. */
  readonly lastSeenAt: number;
  /** When the sign-in ends: the cookie sign-in's own expiry. */
  readonly expiresAt: number;
  readonly createdAt: number;
  /**
   * What signed this session in, as the app names the factors (`password`, `totp`, `passkey`…),
   * in the order they were given; empty when the app said nothing.
   */
  readonly factors: readonly string[];
}

/** What {@link TrackedSessionStore.create} stores. */
export interface NewTrackedSession {
  readonly userId: number;
  /** `sha256Hex` of the token the cookie holds: the only trace of the token that is kept. */
  readonly digest: string;
  readonly ipAddress: string | null;
  readonly browser: string;
  readonly userAgent: string | null;
  readonly expiresAt: number;
  /** Sign-in time, which is also the first last-seen time. */
  readonly createdAt: number;
  /** What signed the session in (see {@link TrackedSession.factors}); default none. */
  readonly factors?: readonly string[] | undefined;
}

/**
 * Where tracked sessions live (table `user_sessions`). Times are passed in and stores hold no
 * clock. Each method is one statement, and every lookup and delete names the owner in that
 * statement, so an id or digest of another user finds nothing. Rows go with their user.
 */
export interface TrackedSessionStore {
  /** Stores a sign-in; the digest is unique. */
  create(session: NewTrackedSession): Promise<TrackedSession>;
  /** The user's session whose token has this digest; a lookup by digest never compares tokens. */
  findByDigest(userId: number, digest: string): Promise<TrackedSession | undefined>;
  /** The user's sessions that have not expired at `now`, the most recently seen first. */
  listForUser(userId: number, now: number): Promise<TrackedSession[]>;
  /**
   * Sets the last-seen time to `seenAt` when it is at or before `staleAt`, in one conditional
   * update; returns whether it wrote. Passing `seenAt` minus an hour as `staleAt` is what
   * writes at most once an hour, however many requests race.
   */
  touchLastSeen(id: number, seenAt: number, staleAt: number): Promise<boolean>;
  /** Deletes session `id` only if it is `userId`'s; false when the user has no such session. */
  deleteForUser(userId: number, id: number): Promise<boolean>;
  /** Deletes the user's sessions except `keepId` (all of them when undefined); returns how many. */
  deleteOthersForUser(userId: number, keepId: number | undefined): Promise<number>;
  /**
   * Deletes every session, of any user, expired at `now`; returns how many. A store on a shared
   * database deletes in small batches and yields between them (the SQLite store: 1,000 rows a
   * statement), so a cleanup never holds the database, and is safe in several processes at once.
   */
  deleteExpired(now: number): Promise<number>;
}
