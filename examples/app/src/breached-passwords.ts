import {
  type BreachedPasswordCheck,
  PWNED_PASSWORDS_TIMEOUT_MS,
  PWNED_RANGE_ANSWER_BYTES,
  pwnedPasswords,
} from "@tessera/accounts";
import type { OutboundFetch, OutboundFetchLimits } from "@tessera/outbound";
import type { AppConfig } from "./config.js";

/** The range request's limits: 500 ms for the whole exchange, 128 KiB of answer kept. */
export const PWNED_RANGE_LIMITS = {
  timeoutMs: PWNED_PASSWORDS_TIMEOUT_MS,
  answerBytes: PWNED_RANGE_ANSWER_BYTES,
} satisfies OutboundFetchLimits;

/**
 * The check of `PWNED_PASSWORDS` against `PWNED_PASSWORDS_URL`, or undefined when it is off.
 * `guardedFetch` builds the runtime's guarded fetch (the outbound policy, and these limits):
 * `nodeGuardedFetch` on Node, `guardedFetch` on Workers.
 */
export function appBreachedPasswords(
  config: AppConfig,
  guardedFetch: (limits: OutboundFetchLimits) => OutboundFetch,
): BreachedPasswordCheck | undefined {
  if (!config.pwnedPasswords) return undefined;
  return pwnedPasswords({ url: config.pwnedPasswordsUrl, fetch: guardedFetch(PWNED_RANGE_LIMITS) });
}
