import { sha256 } from "./hash.js";

/**
 * Compares two byte strings in time that depends only on their length, never on where they
 * differ. Different lengths give false at once: length is not treated as secret.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * Compares two texts without revealing where they differ or how long the secret one is: both
 * are hashed first, so the comparison always covers 32 bytes.
 */
export function constantTimeEqualText(a: string, b: string): boolean {
  return constantTimeEqual(sha256(a), sha256(b));
}
