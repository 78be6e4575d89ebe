import { type Clock, fail, ok, type Result } from "@tessera/core";
import {
  constantTimeEqualText,
  deriveKeyRing,
  encodeHex,
  hmacSha256,
  type KeyRing,
  type SecretKeyBase,
} from "@tessera/crypto";
import type { EmailCodeStore } from "./email-code-store.js";

/** How long an emailed sign-in code is valid. */
export const EMAIL_CODE_LIFETIME_MS = 10 * 60_000;
/** Wrong codes after which a code stops working, even the right one. */
export const EMAIL_CODE_MAXIMUM_FAILURES = 5;

const CODE_SHAPE = /^\d{6}$/;
// The largest multiple of 10^6 below 2^32: values above it are drawn again, so that every code
// is equally likely.
const UNBIASED_LIMIT = 4_294_000_000;

/**
 * The keys of code digests. Keyed, not a bare SHA-256: a six-digit code has a million values,
 * which anyone with a copy of the table could try in a moment; without the secret they cannot.
 */
export function emailCodeKeys(secretKeyBase: SecretKeyBase): KeyRing {
  return deriveKeyRing(secretKeyBase, "tessera email codes");
}

/** A new code: six decimal digits, uniformly drawn. */
export function newEmailCode(): string {
  const draw = new Uint32Array(1);
  do crypto.getRandomValues(draw);
  while (draw[0]! >= UNBIASED_LIMIT);
  return String(draw[0]! % 1_000_000).padStart(6, "0");
}

/** The stored digest of a code under one key (HMAC-SHA256 of the user's id and the code, hex). */
function emailCodeDigest(key: Uint8Array, userId: number, code: string): string {
  return encodeHex(hmacSha256(key, `${userId}:${code}`));
}

/**
 * Makes the user's new code, stores its digest (the previous code stops working) and returns
 * the code to put in the mail.
 */
export async function issueEmailCode(
  store: EmailCodeStore,
  keys: KeyRing,
  userId: number,
  clock: Clock,
): Promise<string> {
  const code = newEmailCode();
  const now = clock();
  await store.issue(
    userId,
    emailCodeDigest(keys.current, userId, code),
    now + EMAIL_CODE_LIFETIME_MS,
    now,
  );
  return code;
}

/**
 * Checks a typed code against the user's and uses it up when it is right: `ok` once, for one
 * caller. `invalid` for a wrong, used, replaced or expired code, and for any code after
 * {@link EMAIL_CODE_MAXIMUM_FAILURES} tries (the user asks for a new one). Each try is counted
 * before it is judged, so racing tries cannot be judged past that number.
 */
export async function consumeEmailCode(
  store: EmailCodeStore,
  keys: KeyRing,
  userId: number,
  typed: string,
  clock: Clock,
): Promise<Result<void, "invalid">> {
  const code = typed.trim();
  const stored = await store.countAttempt(userId, EMAIL_CODE_MAXIMUM_FAILURES, clock());
  if (!stored) return fail("invalid");
  const right =
    CODE_SHAPE.test(code) &&
    keys.all.some((key) =>
      constantTimeEqualText(emailCodeDigest(key, userId, code), stored.digest),
    );
  if (!right) return fail("invalid");
  return (await store.consume(userId, stored.digest)) ? ok(undefined) : fail("invalid");
}
