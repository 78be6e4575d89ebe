import type { Clock } from "@tessera/core";

/** Tolerance of the Standard Webhooks scheme (300 seconds), also the Stripe default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Reads a signed timestamp: decimal seconds since the epoch, digits only, as senders write it.
 * Returns undefined for anything else ("hello", "-5", "1e9", " 12").
 */
export function parseTimestampSeconds(text: string): number | undefined {
  return /^[0-9]{1,12}$/.test(text) ? Number(text) : undefined;
}

/** True when `timestamp` (seconds) is at most `toleranceSeconds` before or after now. */
export function isWithinTolerance(
  timestamp: number,
  clock: Clock,
  toleranceSeconds: number,
): boolean {
  return Math.abs(Math.floor(clock() / 1000) - timestamp) <= toleranceSeconds;
}

/**
 * Checks a configured tolerance: seconds, zero or more; `Infinity` turns the check off.
 * @throws {RangeError} for a negative or NaN tolerance.
 */
export function checkTolerance(toleranceSeconds: number): number {
  if (!(toleranceSeconds >= 0)) {
    throw new RangeError("a timestamp tolerance must be zero or more seconds");
  }
  return toleranceSeconds;
}
