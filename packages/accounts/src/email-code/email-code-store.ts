/** A stored sign-in code as {@link EmailCodeStore.find} returns it. Times are epoch milliseconds. */
export interface EmailCodeRecord {
  /** The keyed digest of the code (`emailCodeDigest`): the only trace of the code kept. */
  readonly digest: string;
  readonly expiresAt: number;
  /** Codes typed against it so far, each counted before it is judged. */
  readonly failures: number;
}

/**
 * Where emailed sign-in codes (`email_codes`) live: at most one per user, a new one replacing
 * the last. `countAttempt` and `consume` are each one conditional statement, so a code is judged
 * at most the allowed number of times and signs in once, however many requests race with it.
 */
export interface EmailCodeStore {
  /** Stores the user's new code, replacing (so cancelling) the previous one and its failures. */
  issue(userId: number, digest: string, expiresAt: number, issuedAt: number): Promise<void>;
  /** The user's current code, or undefined. */
  find(userId: number): Promise<EmailCodeRecord | undefined>;
  /**
   * Counts one typed code against the user's code while it is live (fewer than `maximum`
   * counted, not expired at `at`), in one conditional statement, and returns the code with the
   * new count; undefined, counting nothing, when there is none or it is expired or used up. The
   * caller counts before it judges, and judges against the digest returned, so a count never
   * lands on a code other than the one judged.
   */
  countAttempt(userId: number, maximum: number, at: number): Promise<EmailCodeRecord | undefined>;
  /** Deletes the user's code with this digest; true for the one caller that deleted it. */
  consume(userId: number, digest: string): Promise<boolean>;
}
