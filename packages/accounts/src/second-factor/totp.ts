import { createTOTPKeyURI, generateHOTP, verifyHOTP } from "@oslojs/otp";
import { randomBytes } from "@tessera/crypto";

/** Seconds per code, as every authenticator app assumes. */
export const TOTP_PERIOD_SECONDS = 30;
/** Digits per code. */
export const TOTP_DIGITS = 6;
/** Bytes of a new TOTP key: 160 bits, RFC 4226's recommended length for HMAC-SHA1. */
export const TOTP_KEY_BYTES = 20;
// One step either side: a phone clock 30 s off, or a code typed as it changes, still counts.
const DRIFT_STEPS = 1;

/** A fresh random TOTP key (160 bits). */
export function newTotpKey(): Uint8Array {
  return randomBytes(TOTP_KEY_BYTES);
}

/**
 * The `otpauth://totp/<issuer>:<account>?secret=…&issuer=…` URI an authenticator app reads
 * from a QR code (SHA-1, 6 digits, 30 s: the only parameters every app honours).
 */
export function totpKeyUri(issuer: string, accountName: string, key: Uint8Array): string {
  return createTOTPKeyURI(issuer, accountName, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

/** The time step (RFC 6238's T) an instant falls in. */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / (TOTP_PERIOD_SECONDS * 1000));
}

/** The code of `key` at an instant: for tests and for the enrolment of a scripted client. */
export function totpCode(key: Uint8Array, atMs: number, digits = TOTP_DIGITS): string {
  return generateHOTP(key, BigInt(totpStep(atMs)), digits);
}

/**
 * What a person typed, as a code to check: spaces dropped (apps show `123 456`); undefined
 * unless exactly six ASCII digits remain. Read before any work, so junk costs nothing.
 */
export function readTotpCode(input: string): string | undefined {
  if (input.length > 32) return undefined;
  const code = input.replace(/\s/g, "");
  return /^[0-9]{6}$/.test(code) ? code : undefined;
}

/**
 * The step, within one step of `atMs`, whose code is `code` and that comes after `lastUsedStep`
 * (a code is accepted once: the caller stores the step it returns); undefined when none. Every
 * candidate is compared in constant time.
 */
export function matchingTotpStep(
  key: Uint8Array,
  code: string,
  atMs: number,
  lastUsedStep: number | null,
): number | undefined {
  const now = totpStep(atMs);
  let matched: number | undefined;
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    const fits = verifyHOTP(key, BigInt(step), TOTP_DIGITS, code);
    if (fits && matched === undefined && (lastUsedStep === null || step > lastUsedStep)) {
      matched = step;
    }
  }
  return matched;
}
