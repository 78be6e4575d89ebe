import {
  deriveKeyRing,
  encodeHex,
  hmacSha256,
  type KeyRing,
  randomBytes,
  type SecretKeyBase,
} from "@tessera/crypto";

/** How many backup codes a user gets at a time. */
export const BACKUP_CODE_COUNT = 10;
// Crockford's base32: no i, l, o or u, so a code read off paper cannot be mistyped into another.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const CODE_LENGTH = 10; // 50 bits each
const CONFUSABLE: Readonly<Record<string, string>> = { i: "1", l: "1", o: "0" };

/**
 * The keys of backup-code digests. A keyed digest, not a bare SHA-256: a code has 50 bits,
 * which a stolen database alone could be searched for; without the secret key base it cannot.
 */
export function backupCodeKeys(secretKeyBase: SecretKeyBase): KeyRing {
  return deriveKeyRing(secretKeyBase, "tessera backup codes");
}

/** Ten new codes, shown once as `xxxxx-xxxxx`. */
export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => {
    // 32 letters divide 256 evenly: one byte, masked to five bits, picks a letter without bias.
    const letters = Array.from(randomBytes(CODE_LENGTH), (byte) => ALPHABET[byte & 31]).join("");
    return `${letters.slice(0, 5)}-${letters.slice(5)}`;
  });
}

// As issued (`xxxxx-xxxxx`), the one hyphen optional; letters are checked after the case.
const TYPED_SHAPE = /^([0-9a-z]{5})-?([0-9a-z]{5})$/;

/**
 * A typed backup code as it was issued, normalized; undefined unless it is one. Allowed: any
 * case, whitespace around it, the hyphen left out, and `i`/`l`/`o` read as `1`/`1`/`0`
 * (Crockford's rule: the code has none of them, and they are what `1` and `0` are misread as).
 * Nothing else: a space or a hyphen anywhere else, or a second hyphen, is not a code.
 */
export function readBackupCode(input: string): string | undefined {
  if (input.length > 40) return undefined;
  const shape = TYPED_SHAPE.exec(input.trim().toLowerCase());
  if (!shape) return undefined;
  const code = `${shape[1]}${shape[2]}`.replace(/[ilo]/g, (letter) => CONFUSABLE[letter]!);
  return [...code].every((c) => ALPHABET.includes(c)) ? code : undefined;
}

/** The stored digest of a normalized code under one key (HMAC-SHA256, hex). */
export function backupCodeDigest(key: Uint8Array, normalizedCode: string): string {
  return encodeHex(hmacSha256(key, normalizedCode));
}
