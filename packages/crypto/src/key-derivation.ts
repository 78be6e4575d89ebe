import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { utf8 } from "./utf8.js";

/** Shortest `SECRET_KEY_BASE` accepted: 32 characters. */
export const MINIMUM_SECRET_LENGTH = 32;

/** The error of a secret that is not there at all (an unset environment variable). */
export const SECRET_KEY_BASE_UNSET = `SECRET_KEY_BASE is not set: pass a secret of at least ${MINIMUM_SECRET_LENGTH} characters (try: openssl rand -hex 64)`;

const DERIVATION_SALT = utf8("tessera key derivation v1");

/**
 * Derives a key from `SECRET_KEY_BASE` for one purpose, named by `label` (HKDF-SHA256, RFC 5869).
 * The same secret and label always give the same key; different labels give independent keys,
 * so a cookie key never verifies a JWT. `length` is in bytes and defaults to 32 (256 bits).
 * @throws {TypeError} when the secret is not a string: `process.env.SECRET_KEY_BASE!` unset.
 * @throws {RangeError} when the secret is shorter than 32 characters or the label is empty.
 */
export function deriveKey(secretKeyBase: string, label: string, length = 32): Uint8Array {
  // Types promise a string, but `process.env.SECRET_KEY_BASE!` is undefined when unset: say so
  // in the words of the setting, not with a TypeError from inside the derivation.
  if (typeof secretKeyBase !== "string") throw new TypeError(SECRET_KEY_BASE_UNSET);
  if (secretKeyBase.length < MINIMUM_SECRET_LENGTH) {
    throw new RangeError(`SECRET_KEY_BASE must be at least ${MINIMUM_SECRET_LENGTH} characters`);
  }
  if (label.length === 0) throw new RangeError("a key derivation label must not be empty");
  return hkdf(nobleSha256, utf8(secretKeyBase), DERIVATION_SALT, utf8(label), length);
}
