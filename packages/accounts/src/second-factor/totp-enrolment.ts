import { fail, ok, type Result } from "@tessera/core";
import { renderSVG } from "uqr";
import type { User } from "../users/user.js";
import { backupCodeDigest, newBackupCodes, readBackupCode } from "./backup-codes.js";
import type { SecondFactors } from "./second-factors.js";
import { matchingTotpStep, newTotpKey, readTotpCode, totpKeyUri } from "./totp.js";
import { openTotpKey, sealTotpKey } from "./totp-key-sealing.js";

/** What a user needs to add Tessera to an authenticator app. */
export interface TotpSetup {
  /** The key in base32, for typing in by hand. */
  readonly secret: string;
  readonly uri: string;
  /** The URI as a QR code, an SVG document (no script, no external reference). */
  readonly qrSvg: string;
}

/**
 * Starts (or restarts) a TOTP enrolment: a new key, stored sealed and pending; sign-in is
 * unchanged until {@link confirmTotpEnrolment}. Refused when TOTP is already on.
 */
export async function beginTotpEnrolment(
  factors: SecondFactors,
  user: User,
): Promise<Result<TotpSetup, "already-enabled">> {
  const key = newTotpKey();
  const sealed = await sealTotpKey(factors.totpKeys, user.id, key);
  if (!(await factors.store.savePendingTotp(user.id, sealed, factors.clock()))) {
    return fail("already-enabled");
  }
  return ok(totpSetup(factors, user, key));
}

/**
 * The pending enrolment's setup shown again (a page that asks for the code once more); undefined
 * when nothing is pending or the key does not open.
 */
export async function pendingTotpSetup(
  factors: SecondFactors,
  user: User,
): Promise<TotpSetup | undefined> {
  const enrolment = await factors.store.findTotp(user.id);
  if (!enrolment || enrolment.confirmedAt !== null) return undefined;
  const key = await openTotpKey(factors.totpKeys, user.id, enrolment.sealedKey);
  return key && totpSetup(factors, user, key);
}

function totpSetup(factors: SecondFactors, user: User, key: Uint8Array): TotpSetup {
  const uri = totpKeyUri(factors.issuer, user.email, key);
  // The secret as the URI carries it (unpadded base32), so the two can never disagree.
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  return { secret, uri, qrSvg: renderSVG(uri, { border: 2 }) };
}

/**
 * Confirms a pending enrolment with a code from the app: TOTP is on, and the ten backup codes
 * returned (shown once) are stored as digests. The code's step counts as used.
 */
export async function confirmTotpEnrolment(
  factors: SecondFactors,
  userId: number,
  typedCode: string,
): Promise<Result<string[], "invalid-code" | "not-pending">> {
  const enrolment = await factors.store.findTotp(userId);
  if (!enrolment || enrolment.confirmedAt !== null) return fail("not-pending");
  const key = await openTotpKey(factors.totpKeys, userId, enrolment.sealedKey);
  const code = readTotpCode(typedCode);
  const now = factors.clock();
  const step = key && code ? matchingTotpStep(key, code, now, null) : undefined;
  if (step === undefined) return fail("invalid-code");
  const codes = newBackupCodes();
  const confirmed = await factors.store.confirmTotp(userId, step, digestsOf(factors, codes), now);
  return confirmed ? ok(codes) : fail("not-pending");
}

/** Ten new backup codes for a user with TOTP on; the old ones stop working. */
export async function regenerateBackupCodes(
  factors: SecondFactors,
  userId: number,
): Promise<Result<string[], "not-enabled">> {
  const enrolment = await factors.store.findTotp(userId);
  if (!enrolment || enrolment.confirmedAt === null) return fail("not-enabled");
  const codes = newBackupCodes();
  await factors.store.replaceBackupCodes(userId, digestsOf(factors, codes), factors.clock());
  return ok(codes);
}

// Stored under the current key; read back under every key of the ring (see backup-codes.ts).
function digestsOf(factors: SecondFactors, codes: readonly string[]): string[] {
  return codes.map((code) =>
    backupCodeDigest(factors.backupCodeKeys.current, readBackupCode(code)!),
  );
}
