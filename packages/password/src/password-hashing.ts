import { constantTimeEqual, encodeBase64url, randomBytes, utf8 } from "@tessera/crypto";
import {
  DEFAULT_ITERATIONS,
  formatPasswordDigest,
  HASH_LENGTH,
  isIterationCountInRange,
  MAXIMUM_ITERATIONS,
  MINIMUM_ITERATIONS,
  parsePasswordDigest,
} from "./digest-format.js";
import { pbkdf2Sha256 } from "./pbkdf2.js";

/** Settings shared by hashing and verification. */
export interface PasswordHashOptions {
  /**
   * Iterations for new digests, the count below which a stored digest needs rehashing (higher
   * counts are kept), and the cost of a dummy check. Default 100000; tests lower it to stay fast.
   */
  readonly iterations?: number;
}

/** The outcome of a verification. */
export interface PasswordCheck {
  readonly valid: boolean;
  /**
   * True only when `valid` is: the digest was made with fewer iterations than configured or a
   * weak salt, so the caller should store `hashPassword(password)` now, while it knows it.
   */
  readonly needsRehash: boolean;
}

const SALT_BYTES = 16;
/** Django's rule: a salt of fewer than 22 alphanumerics holds under 128 bits (22 × log2 62). */
const MINIMUM_STRONG_SALT_LENGTH = 22;
const DUMMY_SALT = "tessera-dummy-password";
const DUMMY_HASH = new Uint8Array(HASH_LENGTH);

function configuredIterations(options: PasswordHashOptions): number {
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  if (!isIterationCountInRange(iterations)) {
    throw new RangeError(
      `iterations must be an integer from ${MINIMUM_ITERATIONS} to ${MAXIMUM_ITERATIONS}`,
    );
  }
  return iterations;
}

function derive(password: string, salt: string, iterations: number): Promise<Uint8Array> {
  return pbkdf2Sha256(utf8(password), utf8(salt), iterations, HASH_LENGTH);
}

/**
 * Hashes a password as `pbkdf2_sha256$100000$<salt>$<hash>` with a fresh 16-byte salt (22
 * URL-safe base64 characters). Django's `check_password` accepts the result as it is.
 * @throws {RangeError} when `options.iterations` is outside 1000..2000000.
 */
export async function hashPassword(
  password: string,
  options: PasswordHashOptions = {},
): Promise<string> {
  const iterations = configuredIterations(options);
  const salt = encodeBase64url(randomBytes(SALT_BYTES));
  return formatPasswordDigest({ iterations, salt, hash: await derive(password, salt, iterations) });
}

/**
 * Checks a password against a stored digest (ours or Django's) in constant time. A missing,
 * malformed, foreign or out-of-range digest (the empty one of a password-less account, or no
 * account at all) is not valid and costs a dummy check, so its timing looks like a wrong
 * password's: `verifyPassword(password, user?.passwordDigest)` is safe as it stands.
 * @throws {RangeError} only for a bad `options.iterations`, never for the inputs.
 */
export async function verifyPassword(
  password: string,
  digest: string | null | undefined,
  options: PasswordHashOptions = {},
): Promise<PasswordCheck> {
  const iterations = configuredIterations(options);
  if (typeof digest !== "string") return verifyDummyPassword(password, options);
  const parsed = parsePasswordDigest(digest);
  if (!parsed.ok) return verifyDummyPassword(password, options);
  const stored = parsed.value;
  const valid = constantTimeEqual(
    await derive(password, stored.salt, stored.iterations),
    stored.hash,
  );
  // Only a weaker digest is replaced: a higher count (a Django app's newer default) is kept, or
  // every login would downgrade it.
  const outdated =
    stored.iterations < iterations || stored.salt.length < MINIMUM_STRONG_SALT_LENGTH;
  return { valid, needsRehash: valid && outdated };
}

/**
 * The check to run when no account matches: real PBKDF2 work at the configured iteration count,
 * as long as {@link verifyPassword} takes on a digest of that count, and always not valid.
 */
export async function verifyDummyPassword(
  password: string,
  options: PasswordHashOptions = {},
): Promise<PasswordCheck> {
  const hash = await derive(password, DUMMY_SALT, configuredIterations(options));
  // Compared like a real check so both paths do the same work; the answer is ignored.
  constantTimeEqual(hash, DUMMY_HASH);
  return { valid: false, needsRehash: false };
}
