import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { utf8 } from "./utf8.js";

/** Shortest `SECRET_KEY_BASE` accepted: 32 characters. */
export const MINIMUM_SECRET_LENGTH = 32;

const DERIVATION_SALT = utf8("tessera key derivation v1");

/**
 * Derives a key from `SECRET_KEY_BASE` for one purpose, named by `label` (HKDF-SHA256, RFC 5869).
 * The same secret and label always give the same key; different labels give independent keys,
 * so a cookie key never verifies a JWT. `length` is in bytes and defaults to 32 (256 bits).
 * @throws {RangeError} when the secret is shorter than 32 characters or the label is empty.
 */
export function deriveKey(secretKeyBase: string, label: string, length = 32): Uint8Array {
  if (secretKeyBase.length < MINIMUM_SECRET_LENGTH) {
    throw new RangeError(`SECRET_KEY_BASE must be at least ${MINIMUM_SECRET_LENGTH} characters`);
  }
  if (label.length === 0) throw new RangeError("a key derivation label must not be empty");
  return hkdf(nobleSha256, utf8(secretKeyBase), DERIVATION_SALT, utf8(label), length);
}
