/** What {@link EmailChangeStore.request} stores. Times are epoch milliseconds. */
export interface NewEmailChange {
  readonly userId: number;
  /** The address asked for, normalized: the account gets it once the link is used. */
  readonly newEmail: string;
  /** `sha256Hex` of the mailed token: the only trace of the token that is kept. */
  readonly digest: string;
  readonly expiresAt: number;
  readonly requestedAt: number;
}

/**
 * A pending change as `consume` and `peek` return it: whose, to which address, and until when
 * (epoch ms; a store that keeps whole seconds rounds down, so a link never lives longer).
 */
export interface PendingEmailChange {
  readonly userId: number;
  readonly newEmail: string;
  readonly expiresAt: number;
}

/**
 * Where pending email changes (`email_changes`) live: at most one per user, the newest request
 * replacing the older. `consume` is one delete-and-return statement, so a link changes the
 * address once however many requests race for it. Stores do not judge expiry: they return
 * `expiresAt` and the caller compares.
 */
export interface EmailChangeStore {
  /** Stores the change, replacing (so cancelling) the user's pending one. */
  request(change: NewEmailChange): Promise<void>;
  /**
   * Deletes the change with this digest and returns it, in one atomic statement
   * (`DELETE … RETURNING`); undefined when there is none. An expired change is deleted too.
   */
  consume(digest: string): Promise<PendingEmailChange | undefined>;
  /** The change with this digest, left in place: for the page that only shows a button. */
  peek(digest: string): Promise<PendingEmailChange | undefined>;
}
