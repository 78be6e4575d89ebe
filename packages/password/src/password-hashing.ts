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
import {
  derivationFor,
  type IterationLimits,
  iterationLimits,
  verifiableIterations,
} from "./iteration-limits.js";
import { noblePbkdf2Sha256, pbkdf2Sha256 } from "./pbkdf2.js";

/** Settings shared by hashing and verification. */
export interface PasswordHashOptions {
  /**
   * Iterations for new digests, the count below which a stored digest needs rehashing (higher
   * counts are kept), and the cost of a dummy check. Default 100000; tests lower it to stay fast.
   * Never above `maximumNativeIterations`.
   */
  readonly iterations?: number | undefined;
  /**
   * The most iterations the runtime's WebCrypto derives. Default: 100000 on Cloudflare Workers,
   * whose production runtime refuses more; no cap elsewhere. A stored digest above it is
   * verified in pure JS within `maximumFallbackIterations`; new digests never exceed it.
   */
  readonly maximumNativeIterations?: number | undefined;
  /**
   * The most iterations verified in pure JS (@noble/hashes) when above
   * `maximumNativeIterations`: the CPU one sign-in may spend, about 1.3 ms per 1,000 iterations
   * on the development machine. Default 800000. A digest above both is not checked: see
   * {@link PasswordCheck.unverifiable}.
   */
  readonly maximumFallbackIterations?: number | undefined;
}

/** The outcome of a verification. */
export interface PasswordCheck {
  readonly valid: boolean;
  /**
   * True only when `valid` is: the digest was made with fewer iterations than configured or a
   * weak salt, so the caller should store `hashPassword(password)` now, while it knows it.
   */
  readonly needsRehash: boolean;
  /**
   * Present when the digest could not be checked on this runtime (`valid` is then false, though
   * the password may be right): log it, since only the operator can act on it.
   */
  readonly unverifiable?: UnverifiableDigest | undefined;
}

/** A stored digest this runtime may not verify: its count is above both limits. */
export interface UnverifiableDigest {
  readonly reason: "iterations-above-limit";
  /** The digest's iteration count. */
  readonly iterations: number;
  /** The most this runtime verifies under the options (native or pure JS). */
  readonly maximumIterations: number;
}

const SALT_BYTES = 16;
/** Django's rule: a salt of fewer than 22 alphanumerics holds under 128 bits (22 × log2 62). */
const MINIMUM_STRONG_SALT_LENGTH = 22;
const DUMMY_SALT = "tessera-dummy-password";
const DUMMY_HASH = new Uint8Array(HASH_LENGTH);

/** The options, checked: the count for new digests and the runtime's limits. */
interface Settings {
  readonly iterations: number;
  readonly limits: IterationLimits;
}

function checkedSettings(options: PasswordHashOptions): Settings {
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  if (!isIterationCountInRange(iterations)) {
    throw new RangeError(
      `iterations must be an integer from ${MINIMUM_ITERATIONS} to ${MAXIMUM_ITERATIONS}`,
    );
  }
  const limits = iterationLimits(options);
  // New digests, rehashes included, must be what this runtime's WebCrypto can derive: a digest
  // it could only verify in pure JS would make every later sign-in pay for that.
  if (iterations > limits.maximumNative) {
    throw new RangeError(
      `iterations (${iterations}) must not exceed maximumNativeIterations (${limits.maximumNative}), the most this runtime's WebCrypto derives`,
    );
  }
  return { iterations, limits };
}

function derive(password: string, salt: string, iterations: number): Promise<Uint8Array> {
  return pbkdf2Sha256(utf8(password), utf8(salt), iterations, HASH_LENGTH);
}

/** Pure JS: for stored counts above what the runtime's WebCrypto accepts. */
function deriveInPureJs(password: string, salt: string, iterations: number): Promise<Uint8Array> {
  return noblePbkdf2Sha256(utf8(password), utf8(salt), iterations, HASH_LENGTH);
}

/**
 * Hashes a password as `pbkdf2_sha256$100000$<salt>$<hash>` with a fresh 16-byte salt (22
 * URL-safe base64 characters). Django's `check_password` accepts the result as it is.
 * @throws {RangeError} when `options.iterations` is outside 1000..2000000.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from "@tessera/password";
 *
 * const digest = await hashPassword("correct horse battery staple"); // store the digest
 * const check = await verifyPassword("correct horse battery staple", digest);
 * console.log(check.valid, check.needsRehash); // true false
 * ```
 */
export async function hashPassword(
  password: string,
  options: PasswordHashOptions = {},
): Promise<string> {
  const { iterations } = checkedSettings(options);
  const salt = encodeBase64url(randomBytes(SALT_BYTES));
  return formatPasswordDigest({ iterations, salt, hash: await derive(password, salt, iterations) });
}

/**
 * Checks a password against a stored digest (ours or Django's) in constant time. A missing,
 * malformed, foreign or out-of-range digest (the empty one of a password-less account, or no
 * account at all) is not valid and costs a dummy check, so its timing looks like a wrong
 * password's: `verifyPassword(password, user?.passwordDigest)` is safe as it stands.
 * A count above `maximumNativeIterations` is derived in pure JS; above the fallback's budget
 * too, the answer is not valid, with `unverifiable` saying why, after a dummy check.
 * @throws {RangeError} only for bad options, never for the inputs.
 */
export async function verifyPassword(
  password: string,
  digest: string | null | undefined,
  options: PasswordHashOptions = {},
): Promise<PasswordCheck> {
  const { iterations, limits } = checkedSettings(options);
  if (typeof digest !== "string") return verifyDummyPassword(password, options);
  const parsed = parsePasswordDigest(digest);
  if (!parsed.ok) return verifyDummyPassword(password, options);
  const stored = parsed.value;
  const derivation = derivationFor(stored.iterations, limits);
  if (derivation === "refused") {
    await verifyDummyPassword(password, options);
    return {
      valid: false,
      needsRehash: false,
      unverifiable: {
        reason: "iterations-above-limit",
        iterations: stored.iterations,
        maximumIterations: verifiableIterations(limits),
      },
    };
  }
  const derived =
    derivation === "native"
      ? await derive(password, stored.salt, stored.iterations)
      : await deriveInPureJs(password, stored.salt, stored.iterations);
  const valid = constantTimeEqual(derived, stored.hash);
  // Only a weaker digest is replaced: a higher count (a Django app's newer default) is kept, or
  // every login would downgrade it. The replacement has `iterations`, which checkedSettings
  // holds within the native limit, so a rehash never asks for a count WebCrypto refuses.
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
  const hash = await derive(password, DUMMY_SALT, checkedSettings(options).iterations);
  // Compared like a real check so both paths do the same work; the answer is ignored.
  constantTimeEqual(hash, DUMMY_HASH);
  return { valid: false, needsRehash: false };
}
