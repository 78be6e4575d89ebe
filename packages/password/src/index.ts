export {
  DEFAULT_ITERATIONS,
  DIGEST_ALGORITHM,
  type DigestFailure,
  HASH_LENGTH,
  isIterationCountInRange,
  MAXIMUM_ITERATIONS,
  MAXIMUM_SALT_LENGTH,
  MINIMUM_ITERATIONS,
  type PasswordDigest,
  parsePasswordDigest,
} from "./digest-format.js";
export {
  DEFAULT_MAXIMUM_FALLBACK_ITERATIONS,
  WORKERS_MAXIMUM_NATIVE_ITERATIONS,
} from "./iteration-limits.js";
export {
  hashPassword,
  type PasswordCheck,
  type PasswordHashOptions,
  type UnverifiableDigest,
  verifyDummyPassword,
  verifyPassword,
} from "./password-hashing.js";
export { type Pbkdf2Sha256, pbkdf2Sha256 } from "./pbkdf2.js";
export {
  checkPasswordPolicy,
  MAXIMUM_PASSWORD_LENGTH,
  MINIMUM_PASSWORD_LENGTH,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from "./policy.js";
