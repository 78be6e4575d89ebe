import type { SignInMethod } from "../account-hooks.js";

/** A user's TOTP enrolment as stored. Times are epoch milliseconds. */
export interface TotpEnrolment {
  readonly userId: number;
  /** The key, sealed by `sealTotpKey`: never stored in the clear. */
  readonly sealedKey: string;
  /** When the user proved the app works; null while the enrolment is pending. */
  readonly confirmedAt: number | null;
  /** The last time step a code was accepted for; a code is never accepted twice. */
  readonly lastUsedStep: number | null;
}

/** A pending second-factor sign-in (`mfa_token`) as stored. */
export interface SecondFactorChallenge {
  readonly userId: number;
  /**
   * How the user proved who they were before this second step, announced once it is passed;
   * null for a challenge stored before the first factor was kept with it.
   */
  readonly firstFactor: SignInMethod | null;
  readonly expiresAt: number;
  /**
   * Answers counted against it so far, each counted before it is judged (a right one as well,
   * which then uses the challenge up); the challenge is void at `MFA_MAXIMUM_FAILURES`.
   */
  readonly failures: number;
}

/**
 * Where second factors live: TOTP enrolments, backup codes (digests only) and the challenges
 * of a sign-in that waits for its second factor (digests only). Every check-and-change is one
 * statement, so a code or challenge works once however many requests race for it.
 */
export interface SecondFactorStore {
  /** The user's enrolment, pending or confirmed; undefined when there is none. */
  findTotp(userId: number): Promise<TotpEnrolment | undefined>;
  /**
   * Stores a pending enrolment, replacing a pending one; returns false (and changes nothing)
   * when the user already has a confirmed one.
   */
  savePendingTotp(userId: number, sealedKey: string, at: number): Promise<boolean>;
  /**
   * Confirms the pending enrolment with the step its first code was for (one conditional
   * statement), then replaces the user's backup codes; false, and no codes, when nothing was
   * pending.
   */
  confirmTotp(
    userId: number,
    step: number,
    backupCodeDigests: readonly string[],
    at: number,
  ): Promise<boolean>;
  /**
   * Records that a code of `step` was accepted, only if no code of that step or a later one was:
   * false means a replay (or no confirmed enrolment).
   */
  useTotpStep(userId: number, step: number): Promise<boolean>;
  /** Removes the enrolment and every backup code. */
  deleteTotp(userId: number): Promise<void>;
  /** Replaces the user's backup codes (the old ones stop working). */
  replaceBackupCodes(userId: number, digests: readonly string[], at: number): Promise<void>;
  /**
   * Deletes one of the user's backup codes whose digest is among `digests` (one per key of the
   * ring); true when one was there. One statement: a code works once.
   */
  consumeBackupCode(userId: number, digests: readonly string[]): Promise<boolean>;
  /** How many unused backup codes the user has. */
  countBackupCodes(userId: number): Promise<number>;
  /**
   * Stores a challenge under the digest of its `mfa_token`, with the first factor the user
   * passed, and drops the user's challenges that expired by `at` (so the table holds only live
   * ones).
   */
  createChallenge(
    digest: string,
    userId: number,
    firstFactor: SignInMethod,
    expiresAt: number,
    at: number,
  ): Promise<void>;
  /** The challenge with this digest; undefined when there is none. Expiry is the caller's. */
  findChallenge(digest: string): Promise<SecondFactorChallenge | undefined>;
  /**
   * Counts one answer against the challenge while it is live (fewer than `maximum` counted,
   * not expired at `at`), in one conditional statement, and returns it with the new count;
   * undefined, counting nothing, when it is gone, expired or used up. The caller counts before
   * it judges: of any number of racing answers, at most `maximum` are ever judged.
   */
  countChallengeAttempt(
    digest: string,
    maximum: number,
    at: number,
  ): Promise<SecondFactorChallenge | undefined>;
  /** Deletes the challenge and returns it, in one statement; undefined when it was gone. */
  consumeChallenge(digest: string): Promise<SecondFactorChallenge | undefined>;
}
