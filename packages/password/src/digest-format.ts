import { fail, ok, type Result } from "@tessera/core";
import { decodeBase64, EncodingError, encodeBase64 } from "@tessera/crypto";

/** The algorithm name that starts every digest: Django's `pbkdf2_sha256`. */
export const DIGEST_ALGORITHM = "pbkdf2_sha256";
/** Iterations for new digests: 100000. */
export const DEFAULT_ITERATIONS = 100_000;
/** Fewest iterations accepted, when hashing or verifying: RFC 8018 §4.2's minimum. */
export const MINIMUM_ITERATIONS = 1_000;
/**
 * Most iterations accepted, when hashing or verifying: 20 times the default, above Django 6.0's
 * 1,200,000, so one crafted digest costs at most that much work.
 */
export const MAXIMUM_ITERATIONS = 2_000_000;
/** Bytes of PBKDF2 output in a digest: one SHA-256 block, as Django stores it. */
export const HASH_LENGTH = 32;
/** Longest salt accepted from a stored digest. Django's are 22 characters, ours too. */
export const MAXIMUM_SALT_LENGTH = 128;

/** A parsed `pbkdf2_sha256$<iterations>$<salt>$<hash>` digest. */
export interface PasswordDigest {
  readonly iterations: number;
  /** Used as its UTF-8 bytes, exactly as Django does. */
  readonly salt: string;
  readonly hash: Uint8Array;
}

/** Why {@link parsePasswordDigest} refused a text. */
export type DigestFailure = "unknown-algorithm" | "malformed" | "iterations-out-of-range";

// No leading zeros, signs, spaces or exponents: exactly one spelling per count.
const ITERATIONS_PATTERN = /^[1-9][0-9]{0,9}$/;
// Visible ASCII except `$`: covers Django's alphanumeric salts and our URL-safe base64 ones.
const SALT_PATTERN = /^[!-#%-~]+$/;
// 32 bytes are always 43 base64 characters and one `=`.
const HASH_PATTERN = /^[A-Za-z0-9+/]{43}=$/;

/** Whether `iterations` is an integer within [MINIMUM_ITERATIONS, MAXIMUM_ITERATIONS]. */
export function isIterationCountInRange(iterations: number): boolean {
  return (
    Number.isInteger(iterations) &&
    iterations >= MINIMUM_ITERATIONS &&
    iterations <= MAXIMUM_ITERATIONS
  );
}

/**
 * Parses a stored digest strictly: the algorithm, a plain decimal iteration count within range,
 * a salt of 1 to 128 visible ASCII characters and a padded base64 hash of exactly 32 bytes.
 * Never throws: anything else is a failure.
 */
export function parsePasswordDigest(digest: string): Result<PasswordDigest, DigestFailure> {
  const parts = digest.split("$");
  if (parts.length !== 4) return fail("malformed");
  const [algorithm, iterationText, salt, hashText] = parts as [string, string, string, string];
  if (algorithm !== DIGEST_ALGORITHM) return fail("unknown-algorithm");
  if (!ITERATIONS_PATTERN.test(iterationText)) return fail("malformed");
  const iterations = Number(iterationText);
  if (!isIterationCountInRange(iterations)) return fail("iterations-out-of-range");
  if (salt.length > MAXIMUM_SALT_LENGTH || !SALT_PATTERN.test(salt)) return fail("malformed");
  if (!HASH_PATTERN.test(hashText)) return fail("malformed");
  try {
    return ok({ iterations, salt, hash: decodeBase64(hashText) });
  } catch (error) {
    if (error instanceof EncodingError) return fail("malformed");
    throw error;
  }
}

/**
 * Writes a digest in Django's form; whatever it writes, {@link parsePasswordDigest} reads back.
 * @throws {RangeError} for a salt, hash or iteration count that parsing would refuse.
 */
export function formatPasswordDigest({ iterations, salt, hash }: PasswordDigest): string {
  if (salt.length > MAXIMUM_SALT_LENGTH || !SALT_PATTERN.test(salt)) {
    throw new RangeError("a password salt must be 1 to 128 visible ASCII characters other than $");
  }
  if (hash.length !== HASH_LENGTH)
    throw new RangeError(`a password hash must be ${HASH_LENGTH} bytes`);
  if (!isIterationCountInRange(iterations)) {
    throw new RangeError(
      `iterations must be an integer from ${MINIMUM_ITERATIONS} to ${MAXIMUM_ITERATIONS}`,
    );
  }
  return `${DIGEST_ALGORITHM}$${iterations}$${salt}$${encodeBase64(hash)}`;
}
