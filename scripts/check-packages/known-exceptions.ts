import type { CheckName } from "./findings.js";

/** A check a package is known to fail today, and why. */
export interface KnownException {
  readonly packageName: string;
  readonly check: CheckName;
  readonly reason: string;
}

/**
 * KNOWN EXCEPTIONS: the only failures `npm run check:packages` lets pass. Each names the package,
 * the check and why it fails; the check fails again as soon as an exception is no longer needed,
 * so this list only shrinks. Do not add to it to make the check pass: fix the package.
 */
export const KNOWN_EXCEPTIONS: readonly KnownException[] = [];
