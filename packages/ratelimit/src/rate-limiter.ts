import { type Clock, systemClock } from "@tessera/core";
import type { RateLimitStore } from "./store.js";
import { storedRateLimitKey } from "./stored-key.js";
import { fixedWindow } from "./window.js";

/** The default limit: 10 attempts per 60-second window. */
export const DEFAULT_RATE_LIMIT = { limit: 10, windowMs: 60_000 } as const;

/** What a limiter decided for one attempt. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Attempts left in this window after this one; undefined when the limiter cannot tell. */
  readonly remaining: number | undefined;
  /** Seconds until the window ends: the value for `Retry-After` when refused. */
  readonly retryAfterSeconds: number;
}

/** Options for {@link createRateLimiter}. */
export interface RateLimiterOptions {
  readonly store: RateLimitStore;
  readonly limit?: number | undefined;
  readonly windowMs?: number | undefined;
  readonly clock?: Clock | undefined;
}

/** Counts attempts per key in fixed windows. */
export interface RateLimiter {
  /**
   * Records one attempt for `group` (e.g. `"login"`) and `client` (e.g. the client IP key or a
   * target email) and says whether it is allowed. Refused attempts count too.
   */
  attempt(group: string, client: string): Promise<RateLimitDecision>;
}

/**
 * A fixed-window limiter. Counters are approximate: a client can make up to
 * twice the limit across a window boundary, which is the price of one counter per key.
 *
 * @example
 * ```ts
 * import { createRateLimiter, MemoryRateLimitStore } from "@tessera/ratelimit";
 *
 * const limiter = createRateLimiter({ store: new MemoryRateLimitStore(), limit: 5, windowMs: 60_000 });
 * const decision = await limiter.attempt("login", "203.0.113.7");
 * if (!decision.allowed) console.log(`try again in ${decision.retryAfterSeconds} s`);
 * ```
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const limit = options.limit ?? DEFAULT_RATE_LIMIT.limit;
  const windowMs = options.windowMs ?? DEFAULT_RATE_LIMIT.windowMs;
  const clock = options.clock ?? systemClock;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError("limit must be a positive integer");
  if (!Number.isInteger(windowMs) || windowMs < 1000) {
    throw new RangeError("windowMs must be an integer of at least 1000");
  }
  return {
    async attempt(group, client) {
      const window = fixedWindow(clock(), windowMs);
      const key = storedRateLimitKey(group, client);
      const count = await options.store.increment(key, window.start, windowMs);
      return {
        allowed: count <= limit,
        limit,
        remaining: Math.max(0, limit - count),
        retryAfterSeconds: window.secondsLeft,
      };
    },
  };
}
