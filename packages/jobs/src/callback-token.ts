import { formatTimestamp } from "@tessera/core";
import {
  deriveKeyRing,
  encodeBase64url,
  hmacSha256,
  type KeyRing,
  type SecretKeyBase,
} from "@tessera/crypto";

/** The key derivation label of job callback tokens: distinct from every other key's. */
export const JOB_TOKEN_LABEL = "tessera job callback token";

/**
 * The keys that make and check job callback tokens, derived from `SECRET_KEY_BASE` (and the
 * previous one, so callbacks of jobs started before a rotation still pass).
 * @throws {RangeError} when a secret is shorter than 32 characters.
 */
export function jobTokenKeys(secrets: SecretKeyBase): KeyRing {
  return deriveKeyRing(secrets, JOB_TOKEN_LABEL);
}

/**
 * A job's callback token: base64url HMAC-SHA256 (43 characters) of `<job>:<id>:<created_at>`.
 * It is derived, never stored: nothing in the database lets anyone call back for a job, and a
 * retry can rebuild the same address. `created_at` keeps an id reused after a database restore
 * from inheriting an older job's token.
 */
export function jobCallbackToken(
  key: Uint8Array,
  jobName: string,
  job: { readonly id: number; readonly createdAt: number },
): string {
  return encodeBase64url(hmacSha256(key, `${jobName}:${job.id}:${formatTimestamp(job.createdAt)}`));
}
