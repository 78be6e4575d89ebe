/**
 * One family of refresh tokens: every token descended, rotation by rotation, from one sign-in.
 * Times are epoch milliseconds at the one-second resolution of stored times (rounded down),
 * except `authTime`, kept as given.
 */
export interface RefreshTokenFamily {
  readonly id: number;
  readonly userId: number;
  /** The sign-in that started the family. */
  readonly createdAt: number;
  /** The family's last rotation (its creation until the first). */
  readonly lastUsedAt: number;
  /**
   * When the family ends: its creation plus the lifetime. Rotating does not move it, so a
   * sign-in lasts at most that long however often its tokens are refreshed.
   */
  readonly expiresAt: number;
  /** When it was revoked (sign-out, or a reused token), or null. */
  readonly revokedAt: number | null;
  /** The `User-Agent` at sign-in, cut to `MAXIMUM_REFRESH_USER_AGENT_LENGTH`; null when absent. */
  readonly userAgent: string | null;
  /** The client address at sign-in, as the app determined it; null when it had none. */
  readonly ipAddress: string | null;
  /** When the original sign-in was made (epoch ms): the `auth_time` of tokens minted by refresh. */
  readonly authTime: number;
  /** The original sign-in's factors, in order (`["password", "totp"]`): their `amr`. */
  readonly factors: readonly string[];
}

/** One refresh token of a family, known only by its digest. */
export interface RefreshTokenRecord {
  /** `sha256Hex` of the token: the only trace of the token that is kept. */
  readonly digest: string;
  readonly familyId: number;
  readonly createdAt: number;
  /** When it was exchanged for its successor, or null while it is the family's live token. */
  readonly usedAt: number | null;
  /**
   * The successor token sealed under the secret key base (see `refreshTokens`), kept so a
   * retry within the grace gets the same successor; null before use and once forgotten.
   */
  readonly successorSealed: string | null;
}

/** What {@link RefreshTokenStore.findToken} finds: the token and its family. */
export interface FoundRefreshToken {
  readonly token: RefreshTokenRecord;
  readonly family: RefreshTokenFamily;
}

/** What {@link RefreshTokenStore.createFamily} stores: a sign-in and its first token. */
export interface NewRefreshTokenFamily {
  readonly userId: number;
  /** `sha256Hex` of the family's first token. */
  readonly tokenDigest: string;
  /** Sign-in time, which is also the first last-used time. */
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly userAgent: string | null;
  readonly ipAddress: string | null;
  readonly authTime: number;
  readonly factors: readonly string[];
}

/** The token that replaces a used one: its digest, and its plaintext sealed for the grace. */
export interface RefreshTokenSuccessor {
  readonly digest: string;
  readonly sealed: string;
}

/**
 * Where refresh token families and their tokens live (tables `refresh_token_families` and
 * `refresh_tokens`, deleted with their user). A store holds rows, never a clock: times are
 * passed in. The one step that must be atomic, using a token, is a compare-and-set: of any
 * number of concurrent {@link RefreshTokenStore.markUsed} calls on one token, one wins.
 */
export interface RefreshTokenStore {
  /** Stores a family and its first token together (one transaction); returns the family id. */
  createFamily(family: NewRefreshTokenFamily): Promise<number>;
  /** The token with this digest and its family, or undefined; never compares tokens. */
  findToken(digest: string): Promise<FoundRefreshToken | undefined>;
  /**
   * Marks the token used at `now` and stores `successor` in its family, atomically and only if
   * the token was unused and its family is neither revoked nor expired at `now`; touches the
   * family's `lastUsedAt` and forgets the family's older sealed successors. False when another
   * call won the race (or the family has ended): nothing is then written.
   */
  markUsed(digest: string, successor: RefreshTokenSuccessor, now: number): Promise<boolean>;
  /** Revokes the family at `now`; false when there is none or it was already revoked. */
  revokeFamily(familyId: number, now: number): Promise<boolean>;
  /** Revokes every unrevoked family of the user at `now`; returns how many. */
  revokeUserFamilies(userId: number, now: number): Promise<number>;
  /** The user's families neither revoked nor expired at `now`, the newest sign-in first. */
  listFamilies(userId: number, now: number): Promise<RefreshTokenFamily[]>;
  /**
   * Deletes, with their tokens, the families expired at `now` and those revoked more than
   * `REVOKED_FAMILY_RETENTION_MS` (a day) before it; returns how many families. It also forgets
   * the sealed successors of tokens used more than `MAXIMUM_REFRESH_GRACE_MS` before `now`.
   */
  deleteExpired(now: number): Promise<number>;
}

/** How long a revoked family is kept (one day), so a reused token reads "revoked" meanwhile. */
export const REVOKED_FAMILY_RETENTION_MS = 86_400_000;

/** The longest grace a retry of a used token gets its successor in (one minute). */
export const MAXIMUM_REFRESH_GRACE_MS = 60_000;

/** The longest `User-Agent` a family keeps: 512 characters, the rest cut. */
export const MAXIMUM_REFRESH_USER_AGENT_LENGTH = 512;
