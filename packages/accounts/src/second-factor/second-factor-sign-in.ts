import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { fail, ok, type Result } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import type { FailureThrottle } from "@tessera/ratelimit";
import type { SignInMethod } from "../account-hooks.js";
import {
  passkeyAuthenticationOptions,
  verifyPasskeyAssertion,
} from "../passkey/passkey-authentication.js";
import { SECOND_FACTOR_THROTTLE_GROUP } from "../sign-in/account-throttle.js";
import { backupCodeDigest, readBackupCode } from "./backup-codes.js";
import type { SecondFactors } from "./second-factors.js";
import { matchingTotpStep, readTotpCode } from "./totp.js";
import { openTotpKey } from "./totp-key-sealing.js";

/** How long an `mfa_token` waits for its second factor. */
export const MFA_TOKEN_LIFETIME_MS = 5 * 60_000;
/** Wrong codes after which an `mfa_token` is void. */
export const MFA_MAXIMUM_FAILURES = 5;

/** A second factor a user can answer a challenge with. */
export type SecondFactorMethod = "totp" | "backup_code" | "passkey";

/**
 * The second factors the user has turned on; empty when a password alone signs them in. TOTP
 * turns the second step on (its backup codes are the way back in when a device is lost); a
 * passkey then answers it as well.
 */
export async function secondFactorMethods(
  factors: SecondFactors,
  userId: number,
): Promise<SecondFactorMethod[]> {
  const enrolment = await factors.store.findTotp(userId);
  if (enrolment?.confirmedAt == null) return [];
  const withPasskey = factors.passkeys && (await factors.passkeys.store.countPasskeys(userId)) > 0;
  return withPasskey ? ["totp", "backup_code", "passkey"] : ["totp", "backup_code"];
}

/** Whether the user has a second factor, which every sign-in then asks for (none without `factors`). */
export async function hasSecondFactor(
  factors: SecondFactors | undefined,
  userId: number,
): Promise<boolean> {
  return factors !== undefined && (await secondFactorMethods(factors, userId)).length > 0;
}

/**
 * The factors that may answer a second step after `firstFactor`: a factor never answers for
 * itself, so a passkey that only saw a touch is answered by a code, not by a passkey again.
 */
function answeringMethods(
  methods: readonly SecondFactorMethod[],
  firstFactor: SignInMethod | null,
): SecondFactorMethod[] {
  return methods.filter((method) => !(method === "passkey" && firstFactor === "passkey"));
}

/** What answers a challenge: a typed code (TOTP or backup), or a passkey's assertion (JSON). */
export type SecondFactorAnswer = { readonly code: string } | { readonly passkey: unknown };

/**
 * After a first factor (`firstFactor`: a password, an emailed link or code, a passkey that did
 * not verify its user): for a user with a second factor, a new `mfa_token` (stored as its
 * digest with `firstFactor`, valid {@link MFA_TOKEN_LIFETIME_MS}) and the methods that answer
 * it; undefined when the user has none and is signed in by the first factor alone.
 */
export async function startSecondFactor(
  factors: SecondFactors,
  userId: number,
  firstFactor: SignInMethod,
): Promise<{ readonly mfaToken: string; readonly methods: SecondFactorMethod[] } | undefined> {
  const methods = answeringMethods(await secondFactorMethods(factors, userId), firstFactor);
  if (methods.length === 0) return undefined;
  const mfaToken = randomToken();
  const now = factors.clock();
  await factors.store.createChallenge(
    sha256Hex(mfaToken),
    userId,
    firstFactor,
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

/** The live challenge of `mfaToken` and its digest; undefined (and dropped) when void. */
async function liveChallenge(factors: SecondFactors, mfaToken: string, now: number) {
  if (mfaToken.length > 128) return undefined;
  const digest = sha256Hex(mfaToken);
  const challenge = await factors.store.findChallenge(digest);
  if (!challenge) return undefined;
  if (challenge.expiresAt <= now || challenge.failures >= MFA_MAXIMUM_FAILURES) {
    await factors.store.consumeChallenge(digest);
    return undefined;
  }
  return { digest, userId: challenge.userId, firstFactor: challenge.firstFactor };
}

/** The methods that answer the live challenge of `mfaToken`; empty when it is void. */
export async function pendingSecondFactorMethods(
  factors: SecondFactors,
  mfaToken: string,
): Promise<SecondFactorMethod[]> {
  const challenge = await liveChallenge(factors, mfaToken, factors.clock());
  if (!challenge) return [];
  return answeringMethods(
    await secondFactorMethods(factors, challenge.userId),
    challenge.firstFactor,
  );
}

/**
 * The options for answering the challenge of `mfaToken` with one of the user's passkeys (their
 * WebAuthn challenge bound to this `mfa_token`); `void` as {@link completeSecondFactor} says,
 * `no-passkey` when the user has none (or passkeys are off).
 */
export async function secondFactorPasskeyOptions(
  factors: SecondFactors,
  mfaToken: string,
): Promise<Result<PublicKeyCredentialRequestOptionsJSON, "void" | "no-passkey">> {
  const challenge = await liveChallenge(factors, mfaToken, factors.clock());
  if (!challenge) return fail("void");
  const { passkeys } = factors;
  const answers = challenge.firstFactor !== "passkey";
  const allowed = passkeys && answers ? await passkeys.store.listPasskeys(challenge.userId) : [];
  if (!passkeys || allowed.length === 0) return fail("no-passkey");
  const scope = {
    purpose: "second_factor",
    userId: challenge.userId,
    mfaTokenDigest: challenge.digest,
  } as const;
  return ok(await passkeyAuthenticationOptions(passkeys, scope, allowed));
}

/** An answer the account's throttle refused before judging it: the seconds to wait. */
export interface SecondFactorAccountThrottled {
  readonly ok: false;
  readonly reason: "throttled";
  readonly retryAfterSeconds: number;
  /** The account the challenge named. */
  readonly userId: number;
}

/** A refused answer, and the account its challenge named when there was a live one. */
export interface SecondFactorRefused {
  readonly ok: false;
  readonly reason: SecondFactorRefusal;
  readonly userId?: number | undefined;
}

/** A passed challenge: whose it was, the first factor it followed, and which factor answered it. */
export interface PassedSecondFactor {
  readonly userId: number;
  /**
   * The sign-in method the challenge was started with; undefined for a challenge stored before
   * the first factor was kept with it (each route then announces what it always did).
   */
  readonly firstFactor: SignInMethod | undefined;
  readonly factor: SecondFactorMethod;
}

/**
 * Answers a challenge with a TOTP code, a backup code or a passkey: the user and the factor
 * when it is right, and the challenge is then used up. Every answer counts against the
 * challenge before it is judged, so however many race on one `mfa_token`, no more than
 * {@link MFA_MAXIMUM_FAILURES} are ever judged; it counts too against the account in the
 * per-account `throttle` when given ({@link SECOND_FACTOR_THROTTLE_GROUP}), which refuses it
 * unjudged while the account waits (`throttled`), and forgets the count when it is right.
 */
export async function completeSecondFactor(
  factors: SecondFactors,
  mfaToken: string,
  answer: SecondFactorAnswer,
  throttle: FailureThrottle | undefined,
): Promise<
  | { readonly ok: true; readonly value: PassedSecondFactor }
  | SecondFactorRefused
  | SecondFactorAccountThrottled
> {
  const now = factors.clock();
  if (mfaToken.length > 128) return fail("void");
  const digest = sha256Hex(mfaToken);
  const challenge = await factors.store.countChallengeAttempt(digest, MFA_MAXIMUM_FAILURES, now);
  if (!challenge) {
    // Expired or used up, it is of no more use: drop it (a no-op when it was never there).
    await factors.store.consumeChallenge(digest);
    return fail("void");
  }
  // Counted once the challenge names its account, and before the answer is judged.
  const account = `user:${challenge.userId}`;
  const decision = await throttle?.attempt(SECOND_FACTOR_THROTTLE_GROUP, account);
  const { userId } = challenge;
  if (decision && !decision.allowed) {
    return {
      ok: false,
      reason: "throttled",
      retryAfterSeconds: decision.retryAfterSeconds,
      userId,
    };
  }
  const accepted =
    "code" in answer
      ? await acceptCode(factors, challenge.userId, answer.code, now)
      : challenge.firstFactor !== "passkey" &&
        (await acceptPasskey(factors, challenge.userId, digest, answer.passkey)) &&
        "passkey";
  if (!accepted) {
    if (challenge.failures < MFA_MAXIMUM_FAILURES)
      return { ok: false, reason: "wrong-code", userId };
    await factors.store.consumeChallenge(digest);
    return { ok: false, reason: "void", userId };
  }
  // Of two right answers racing, one takes the challenge; the other is refused.
  const taken = await factors.store.consumeChallenge(digest);
  await throttle?.succeeded(SECOND_FACTOR_THROTTLE_GROUP, account);
  return taken && taken.userId === challenge.userId
    ? ok({
        userId: challenge.userId,
        firstFactor: taken.firstFactor ?? undefined,
        factor: accepted,
      })
    : fail("void");
}

/** Whether `assertion` is a valid answer of one of the user's passkeys to this challenge. */
async function acceptPasskey(
  factors: SecondFactors,
  userId: number,
  mfaTokenDigest: string,
  assertion: unknown,
): Promise<boolean> {
  if (!factors.passkeys) return false;
  const scope = { purpose: "second_factor", userId, mfaTokenDigest } as const;
  return (await verifyPasskeyAssertion(factors.passkeys, assertion, scope)).ok;
}

/**
 * Which factor `typedCode` is, when it is a current, unused TOTP code or an unused backup code
 * of the user; undefined otherwise.
 */
async function acceptCode(
  factors: SecondFactors,
  userId: number,
  typedCode: string,
  now: number,
): Promise<SecondFactorMethod | undefined> {
  const totpCode = readTotpCode(typedCode);
  if (totpCode) {
    const enrolment = await factors.store.findTotp(userId);
    if (!enrolment || enrolment.confirmedAt === null) return undefined;
    const key = await openTotpKey(factors.totpKeys, userId, enrolment.sealedKey);
    const step = key ? matchingTotpStep(key, totpCode, now, enrolment.lastUsedStep) : undefined;
    const used = step !== undefined && (await factors.store.useTotpStep(userId, step));
    return used ? "totp" : undefined;
  }
  const backupCode = readBackupCode(typedCode);
  if (!backupCode) return undefined;
  const digests = factors.backupCodeKeys.all.map((key) => backupCodeDigest(key, backupCode));
  return (await factors.store.consumeBackupCode(userId, digests)) ? "backup_code" : undefined;
}
