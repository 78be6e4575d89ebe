export {
  type BindingRateLimiterOptions,
  bindingRateLimiter,
  type RateLimitBinding,
} from "./binding-limiter.js";
export type { FailureStreak, FailureStreakStore } from "./failure-streak-store.js";
export {
  createFailureThrottle,
  DEFAULT_FAILURE_THROTTLE,
  type FailureThrottle,
  type FailureThrottleDecision,
  type FailureThrottleOptions,
  type FailureThrottlePolicy,
  failureThrottleCleanups,
  failureThrottlePolicy,
  type QuietStreakPruner,
} from "./failure-throttle.js";
export { MemoryFailureStreakStore } from "./memory-failure-streak-store.js";
export { MemoryRateLimitStore } from "./memory-store.js";
export {
  type EndedWindowPruner,
  type RateLimitCleanupOptions,
  rateLimitCleanups,
} from "./rate-limit-cleanups.js";
export {
  createRateLimiter,
  DEFAULT_RATE_LIMIT,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimiterOptions,
} from "./rate-limiter.js";
export type { RateLimitStore } from "./store.js";
export { MAXIMUM_STORED_KEY_LENGTH, storedRateLimitKey } from "./stored-key.js";
export { fixedWindow } from "./window.js";
