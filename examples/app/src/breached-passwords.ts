import {
  type BreachedPasswordCheck,
  PWNED_RANGE_ANSWER_BYTES,
  pwnedPasswords,
} from "@tessera/accounts";
import type { OutboundFetch, OutboundFetchLimits } from "@tessera/outbound";
import type { AppConfig } from "./config.js";

/**
 * The check of `PWNED_PASSWORDS` against `PWNED_PASSWORDS_URL` within
 * `PWNED_PASSWORDS_TIMEOUT_MS`, or undefined when it is off.
 * `guardedFetch` builds the runtime's guarded fetch (the outbound policy, and these limits):
 * `nodeGuardedFetch` on Node, `guardedFetch` on Workers.
 */
export function appBreachedPasswords(
  config: AppConfig,
  guardedFetch: (limits: OutboundFetchLimits) => OutboundFetch,
): BreachedPasswordCheck | undefined {
  if (!config.pwnedPasswords) return undefined;
  // The whole exchange within the check's time (`PWNED_PASSWORDS_TIMEOUT_MS`), 128 KiB kept.
  const timeoutMs = config.pwnedPasswordsTimeoutMs;
  const fetch = guardedFetch({ timeoutMs, answerBytes: PWNED_RANGE_ANSWER_BYTES });
  return pwnedPasswords({ url: config.pwnedPasswordsUrl, fetch, timeoutMs });
}
