import { toBytes } from "@tessera/crypto";

/**
 * The key bytes of a shared secret used as-is (UTF-8 text or bytes), as the X-Signature, GitHub
 * and Stripe schemes use it. Empty secrets, and text secrets with leading or trailing
 * whitespace (almost always a stray newline from an env file), are refused at start-up.
 * @throws {RangeError} for such a secret.
 */
export function textSecretKey(secret: string | Uint8Array): Uint8Array {
  if (secret.length === 0) throw new RangeError("a webhook secret must not be empty");
  if (typeof secret === "string" && secret.trim() !== secret) {
    throw new RangeError("a webhook secret must not start or end with whitespace");
  }
  return toBytes(secret);
}
