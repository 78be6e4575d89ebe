/** A user's registered passkey (a WebAuthn credential) as stored. Times are epoch milliseconds. */
export interface Passkey {
  /** The row's own id: what the routes show and delete by. */
  readonly id: number;
  readonly userId: number;
  /** The authenticator's credential id, base64url: unique across every user. */
  readonly credentialId: string;
  /** The credential's COSE public key, base64url. */
  readonly publicKey: string;
  /** The signature counter last seen; 0 for authenticators that keep none. */
  readonly counter: number;
  /** How the browser reached the authenticator (`internal`, `usb`, `hybrid`…), as it said. */
  readonly transports: readonly string[];
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** A passkey to store: the registration's verified credential, its owner and name. */
export type NewPasskey = Omit<Passkey, "id" | "lastUsedAt">;

/**
 * Whom a WebAuthn challenge was issued to, which its answer must match: the signed-in user adding
 * a passkey, a password sign-in waiting for its second factor (the `mfa_token`'s digest), or
 * anyone signing in with a passkey alone.
 */
export type PasskeyChallengeScope =
  | { readonly purpose: "registration"; readonly userId: number }
  | {
      readonly purpose: "second_factor";
      readonly userId: number;
      readonly mfaTokenDigest: string;
    }
  | { readonly purpose: "sign_in" };

/**
 * Where passkeys and their WebAuthn challenges live. Challenges are kept only as SHA-256 digests
 * and taken by one delete-and-return statement, so each answers once however many requests race;
 * a counter only moves forward, in one conditional statement.
 */
export interface PasskeyStore {
  /** Stores a passkey; undefined (and nothing stored) when its credential id is already taken. */
  createPasskey(passkey: NewPasskey): Promise<Passkey | undefined>;
  /** The user's passkeys, oldest first. */
  listPasskeys(userId: number): Promise<Passkey[]>;
  /** How many passkeys the user has. */
  countPasskeys(userId: number): Promise<number>;
  /** The passkey with this credential id, whoever owns it; undefined when there is none. */
  findPasskey(credentialId: string): Promise<Passkey | undefined>;
  /** Renames one of the user's passkeys; false when the user has none with this id. */
  renamePasskey(userId: number, id: number, name: string): Promise<boolean>;
  /** Removes one of the user's passkeys; false when the user has none with this id. */
  deletePasskey(userId: number, id: number): Promise<boolean>;
  /**
   * Records a sign-in with the passkey: sets the counter to `counter` and `last_used_at`, only if
   * the counter moved forward (or both are 0, for authenticators without one). False means a
   * counter that went back or stood still (a cloned authenticator), or no such passkey.
   */
  usePasskey(credentialId: string, counter: number, at: number): Promise<boolean>;
  /**
   * Stores a challenge under its digest for `scope` until `expiresAt`, and drops every challenge
   * expired by `at` (so the table holds only live ones).
   */
  createChallenge(
    digest: string,
    scope: PasskeyChallengeScope,
    expiresAt: number,
    at: number,
  ): Promise<void>;
  /**
   * Deletes the challenge with this digest and scope and returns its expiry, in one statement;
   * undefined when there is none for this scope (used, never issued, or another's). Expiry is
   * the caller's to check.
   */
  consumeChallenge(digest: string, scope: PasskeyChallengeScope): Promise<number | undefined>;
}
