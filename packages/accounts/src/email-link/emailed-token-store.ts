/** What an emailed token is for; a token of one purpose is never accepted for another. */
export type EmailedTokenPurpose = "password_reset" | "magic_link" | "email_confirmation";

/** Every {@link EmailedTokenPurpose}, as stores constrain the `purpose` column. */
export const EMAILED_TOKEN_PURPOSES: readonly EmailedTokenPurpose[] = [
  "password_reset",
  "magic_link",
  "email_confirmation",
];

/** What {@link EmailedTokenStore.issue} stores. Times are epoch milliseconds. */
export interface NewEmailedToken {
  readonly userId: number;
  readonly purpose: EmailedTokenPurpose;
  /** `sha256Hex` of the token: the only trace of the token that is kept. */
  readonly digest: string;
  readonly expiresAt: number;
  readonly issuedAt: number;
}

/**
 * A stored token as `consume` and `peek` return it: its owner and expiry (epoch ms; a store
 * that keeps whole seconds rounds down, so a token never lives longer than issued).
 */
export interface EmailedTokenRecord {
  readonly userId: number;
  readonly expiresAt: number;
}

/**
 * Where emailed tokens (`auth_tokens`) live. A user has at most one token per purpose, and
 * `consume` is one delete-and-return statement, so a token works once however many requests
 * race for it. Stores do not judge expiry: they return `expiresAt` and the caller compares.
 */
export interface EmailedTokenStore {
  /** Stores the token, replacing (so cancelling) the user's previous token of that purpose. */
  issue(token: NewEmailedToken): Promise<void>;
  /**
   * Deletes the token with this digest and purpose and returns it, in one atomic statement
   * (`DELETE … RETURNING`); undefined when there is none. An expired token is deleted too.
   */
  consume(digest: string, purpose: EmailedTokenPurpose): Promise<EmailedTokenRecord | undefined>;
  /** The token with this digest and purpose, left in place: for pages that only show a button. */
  peek(digest: string, purpose: EmailedTokenPurpose): Promise<EmailedTokenRecord | undefined>;
}
