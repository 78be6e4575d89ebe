import { fail, ok, type Result } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import { backupCodeDigest, readBackupCode } from "./backup-codes.js";
import type { SecondFactors } from "./second-factors.js";
import { matchingTotpStep, readTotpCode } from "./totp.js";
import { openTotpKey } from "./totp-key-sealing.js";

/** How long an `mfa_token` waits for its second factor. */
export const MFA_TOKEN_LIFETIME_MS = 5 * 60_000;
/** Wrong codes after which an `mfa_token` is void. */
export const MFA_MAXIMUM_FAILURES = 5;

/** A second factor a user can answer a challenge with. */
export type SecondFactorMethod = "totp" | "backup_code";

/** The second factors the user has turned on; empty when a password alone signs them in. */
export async function secondFactorMethods(
  factors: SecondFactors,
  userId: number,
): Promise<SecondFactorMethod[]> {
  const enrolment = await factors.store.findTotp(userId);
  return enrolment?.confirmedAt != null ? ["totp", "backup_code"] : [];
}

/**
 * After a correct password: for a user with a second factor, a new `mfa_token` (stored as its
 * digest, valid {@link MFA_TOKEN_LIFETIME_MS}) and the methods that answer it; undefined when the
 * user has none and is signed in by the password alone.
 */
export async function startSecondFactor(
  factors: SecondFactors,
  userId: number,
): Promise<{ readonly mfaToken: string; readonly methods: SecondFactorMethod[] } | undefined> {
  const methods = await secondFactorMethods(factors, userId);
  if (methods.length === 0) return undefined;
  const mfaToken = randomToken();
  const now = factors.clock();
  await factors.store.createChallenge(
    sha256Hex(mfaToken),
    userId,
    now + MFA_TOKEN_LIFETIME_MS,
    now,
  );
  return { mfaToken, methods };
}

/**
 * Why a challenge was not passed: `wrong-code` while it still waits for a right one; `void` when
 * it is unknown, expired, used up, or took {@link MFA_MAXIMUM_FAILURES} wrong codes (the person
 * must sign in again).
 */
export type SecondFactorRefusal = "wrong-code" | "void";

/**
 * Answers a challenge with a TOTP code or a backup code: the user's id when it is right, and the
 * challenge is then used up. A wrong code counts against the challenge.
 */
export async function completeSecondFactor(
  factors: SecondFactors,
  mfaToken: string,
  typedCode: string,
): Promise<Result<number, SecondFactorRefusal>> {
  if (mfaToken.length > 128) return fail("void");
  const digest = sha256Hex(mfaToken);
  const challenge = await factors.store.findChallenge(digest);
  const now = factors.clock();
  if (!challenge) return fail("void");
  if (challenge.expiresAt <= now || challenge.failures >= MFA_MAXIMUM_FAILURES) {
    await factors.store.consumeChallenge(digest);
    return fail("void");
  }
  if (!(await acceptCode(factors, challenge.userId, typedCode, now))) {
    const failures = await factors.store.recordChallengeFailure(digest);
    if (failures > 0 && failures < MFA_MAXIMUM_FAILURES) return fail("wrong-code");
    await factors.store.consumeChallenge(digest);
    return fail("void");
  }
  // Of two right answers racing, one takes the challenge; the other is refused.
  const taken = await factors.store.consumeChallenge(digest);
  return taken && taken.userId === challenge.userId && taken.expiresAt > now
    ? ok(challenge.userId)
    : fail("void");
}

/** Whether `typedCode` is a current, unused TOTP code or an unused backup code of the user. */
async function acceptCode(
  factors: SecondFactors,
  userId: number,
  typedCode: string,
  now: number,
): Promise<boolean> {
  const totpCode = readTotpCode(typedCode);
  if (totpCode) {
    const enrolment = await factors.store.findTotp(userId);
    if (!enrolment || enrolment.confirmedAt === null) return false;
    const key = await openTotpKey(factors.totpKeys, userId, enrolment.sealedKey);
    const step = key ? matchingTotpStep(key, totpCode, now, enrolment.lastUsedStep) : undefined;
    return step !== undefined && (await factors.store.useTotpStep(userId, step));
  }
  const backupCode = readBackupCode(typedCode);
  if (!backupCode) return false;
  const digests = factors.backupCodeKeys.all.map((key) => backupCodeDigest(key, backupCode));
  return factors.store.consumeBackupCode(userId, digests);
}
