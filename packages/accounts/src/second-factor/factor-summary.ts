/** A user's second factors as `GET /api/auth/me` shows them. */
export interface FactorSummary {
  /** Whether the user has a confirmed TOTP (a pending enrolment does not count). */
  readonly totp: boolean;
  /** How many passkeys the user has. */
  readonly passkeys: number;
}

/**
 * Reads a user's {@link FactorSummary} in one lookup, where the TOTP and passkey stores share a
 * database; it must read the stores' own tables, so the answer changes the moment they do.
 */
export type FindFactorSummary = (userId: number) => Promise<FactorSummary>;
