import type { RateLimitDecision, RateLimiter } from "./rate-limiter.js";
import { storedRateLimitKey } from "./stored-key.js";

/**
 * A limiter that counts by itself and only answers yes or no: the shape of a Cloudflare
 * Workers rate-limiting binding (`env.AUTH_RATE_LIMITER`), whose limit and period are set in
 * the Worker's configuration.
 */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ readonly success: boolean }>;
}

/** Options for {@link bindingRateLimiter}: what the binding is configured with. */
export interface BindingRateLimiterOptions {
  /** The binding's `limit`: attempts per period. */
  readonly limit: number;
  /** The binding's `period` in seconds (Cloudflare allows 10 or 60). */
  readonly periodSeconds: number;
}

/**
 * A {@link RateLimiter} on a binding that counts for itself. The key is the same
 * {@link storedRateLimitKey} the counter stores get. The binding tells neither the attempts left
 * nor when its window ends, so `remaining` is undefined and a refusal asks the client to retry
 * after one whole period, the longest it can have to wait.
 */
export function bindingRateLimiter(
  binding: RateLimitBinding,
  options: BindingRateLimiterOptions,
): RateLimiter {
  if (!Number.isInteger(options.limit) || options.limit < 1) {
    throw new RangeError("limit must be a positive integer");
  }
  if (!Number.isInteger(options.periodSeconds) || options.periodSeconds < 1) {
    throw new RangeError("periodSeconds must be a positive integer");
  }
  return {
    async attempt(group, client): Promise<RateLimitDecision> {
      const { success } = await binding.limit({ key: storedRateLimitKey(group, client) });
      return {
        allowed: success,
        limit: options.limit,
        remaining: undefined,
        retryAfterSeconds: options.periodSeconds,
      };
    },
  };
}
