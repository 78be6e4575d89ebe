import type { Clock, Locale } from "@tessera/core";
import { deriveKey, encodeHex, hmacSha256, type SecretKeyBase } from "@tessera/crypto";
import { jsonError, retryAfter } from "@tessera/http";
import {
  createFailureThrottle,
  type FailureStreakStore,
  type FailureThrottle,
  type FailureThrottlePolicy,
} from "@tessera/ratelimit";
import { accountMessages } from "../account-messages.js";
import { normalizeEmail } from "../users/email.js";
import { signInErrors } from "./sign-in-errors.js";

/** The group counting password guesses per account (keyed by the email's digest). */
export const PASSWORD_THROTTLE_GROUP = "password";
/** The group counting second-factor guesses per account (keyed `user:<id>`). */
export const SECOND_FACTOR_THROTTLE_GROUP = "second_factor";

/**
 * Per-account throttling of guesses: password attempts counted per account key (the normalized
 * email's keyed digest, so an unknown address is counted alike and the store holds no address),
 * second-factor answers per user, across every client address and process.
 */
export interface AccountThrottle {
  readonly throttle: FailureThrottle;
  /** The account key of a submitted email: HMAC-SHA256 of its normalized form, hex. */
  accountKey(email: string): string;
}

/** Options of {@link accountThrottle}. */
export interface AccountThrottleOptions {
  readonly store: FailureStreakStore;
  readonly secretKeyBase: SecretKeyBase;
  readonly policy?: Partial<FailureThrottlePolicy> | undefined;
  readonly clock?: Clock | undefined;
}

/** The per-account throttle on `store`, its keys derived from the current secret key base. */
export function accountThrottle(options: AccountThrottleOptions): AccountThrottle {
  const key = deriveKey(options.secretKeyBase.current, "tessera account throttle");
  const throttle = createFailureThrottle({
    store: options.store,
    clock: options.clock,
    ...options.policy,
  });
  return {
    throttle,
    accountKey(email) {
      return encodeHex(hmacSha256(key, normalizeEmail(email)));
    },
  };
}

/**
 * The JSON 429 of a throttled account: code `account_throttled`, `Retry-After` the seconds
 * until its wait ends.
 */
export function accountThrottledAnswer(
  retryAfterSeconds: number,
  locale: Locale | undefined,
): Response {
  const entry = signInErrors.accountThrottled;
  return jsonError(entry.status, accountMessages.text(locale, entry.message), {
    code: entry.code,
    headers: retryAfter(retryAfterSeconds),
    locale,
  });
}
