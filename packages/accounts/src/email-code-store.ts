/** A stored sign-in code as {@link EmailCodeStore.find} returns it. Times are epoch milliseconds. */
export interface EmailCodeRecord {
  /** The keyed digest of the code (`emailCodeDigest`): the only trace of the code kept. */
  readonly digest: string;
  readonly expiresAt: number;
  /** Wrong codes typed against it so far. */
  readonly failures: number;
}

/**
 * Where emailed sign-in codes (`email_codes`) live: at most one per user, a new one replacing
 * the last. `consume` is one conditional delete, so a code signs in once however many requests
 * race with it; stores do not judge expiry or failures, the caller does.
 */
export interface EmailCodeStore {
  /** Stores the user's new code, replacing (so cancelling) the previous one and its failures. */
  issue(userId: number, digest: string, expiresAt: number, issuedAt: number): Promise<void>;
  /** The user's current code, or undefined. */
  find(userId: number): Promise<EmailCodeRecord | undefined>;
  /**
   * Counts one wrong code against the user's code with this digest and returns the new count;
   * 0 when that code is gone (used, replaced): a failure never lands on a newer code.
   */
  recordFailure(userId: number, digest: string): Promise<number>;
  /** Deletes the user's code with this digest; true for the one caller that deleted it. */
  consume(userId: number, digest: string): Promise<boolean>;
}
