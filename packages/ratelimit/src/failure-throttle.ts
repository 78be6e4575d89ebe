import { type CleanupTask, type Clock, systemClock } from "@tessera/core";
import type { FailureStreak, FailureStreakStore } from "./failure-streak-store.js";
import { storedRateLimitKey } from "./stored-key.js";

/** How a {@link FailureThrottle} slows a key down. */
export interface FailureThrottlePolicy {
  /** Failed attempts, counted within `windowMs` of the first, that start the waits (default 10). */
  readonly failures: number;
  /** The window the failures are counted in (default 15 minutes). */
  readonly windowMs: number;
  /** The first wait; each failure after it doubles the next (default 1 minute). */
  readonly firstWaitMs: number;
  /** The longest wait (default 1 hour). */
  readonly maximumWaitMs: number;
}

/** 10 failures in 15 minutes, then waits of 1, 2, 4 … minutes, never more than an hour. */
export const DEFAULT_FAILURE_THROTTLE: FailureThrottlePolicy = {
  failures: 10,
  windowMs: 15 * 60_000,
  firstWaitMs: 60_000,
  maximumWaitMs: 60 * 60_000,
};

/** What a throttle decided for one attempt, before it was judged. */
export interface FailureThrottleDecision {
  readonly allowed: boolean;
  /** Seconds until the key may try again: the value for `Retry-After` when refused, else 0. */
  readonly retryAfterSeconds: number;
  /**
   * Whether this attempt is the one that starts the waits if it fails: the moment to tell the
   * account's owner, once per throttled period.
   */
  readonly startsWaits: boolean;
}

/** Options of {@link createFailureThrottle}. */
export interface FailureThrottleOptions extends Partial<FailureThrottlePolicy> {
  readonly store: FailureStreakStore;
  readonly clock?: Clock | undefined;
}

/**
 * Slows down guessing at one key (an account), from however many clients and processes. Every
 * attempt is counted *before* it is judged, so a burst of concurrent guesses cannot outrun the
 * count; {@link FailureThrottle.succeeded} then forgets the count. Past the policy's failures,
 * the key waits, and each attempt after a wait doubles the next one. It never locks: the waits
 * end, and a success resets.
 */
export interface FailureThrottle {
  /** Counts one attempt of `subject` in `group`; refused, uncounted, while the subject waits. */
  attempt(group: string, subject: string): Promise<FailureThrottleDecision>;
  /** The attempt succeeded: the subject's count starts again. */
  succeeded(group: string, subject: string): Promise<void>;
  /** The policy in force, defaults filled in. */
  readonly policy: FailureThrottlePolicy;
}

/** Compare-and-set rounds an attempt tries before it is refused for a second (fail closed). */
const MAXIMUM_ROUNDS = 16;

/**
 * A {@link FailureThrottle} on `store`.
 *
 * @example
 * ```ts
 * import { createFailureThrottle, MemoryFailureStreakStore } from "@tessera/ratelimit";
 *
 * const throttle = createFailureThrottle({ store: new MemoryFailureStreakStore() });
 * const decision = await throttle.attempt("password", "account-key");
 * if (!decision.allowed) console.log(`wait ${decision.retryAfterSeconds} s`);
 * // … judge the password; when right:
 * await throttle.succeeded("password", "account-key");
 * ```
 */
export function createFailureThrottle(options: FailureThrottleOptions): FailureThrottle {
  const policy = failureThrottlePolicy(options);
  const clock = options.clock ?? systemClock;
  const { store } = options;
  return {
    policy,
    async attempt(group, subject) {
      const key = storedRateLimitKey(group, subject);
      for (let round = 0; round < MAXIMUM_ROUNDS; round += 1) {
        const stored = await store.read(key);
        // Read after the streak: a time taken before could be older than the streak's last
        // attempt, written meanwhile by a racing attempt.
        const now = clock();
        const streak = stored && !isStreakOver(stored, now, policy) ? stored : undefined;
        const waitEnds = streak ? waitEndOf(streak, policy) : 0;
        if (now < waitEnds) {
          return {
            allowed: false,
            retryAfterSeconds: Math.ceil((waitEnds - now) / 1000),
            startsWaits: false,
          };
        }
        const failures = (streak?.failures ?? 0) + 1;
        const next = { failures, firstAt: streak?.firstAt ?? now, lastAt: now };
        if (await store.replace(key, stored, next)) {
          return { allowed: true, retryAfterSeconds: 0, startsWaits: failures === policy.failures };
        }
      }
      return { allowed: false, retryAfterSeconds: 1, startsWaits: false };
    },
    async succeeded(group, subject) {
      await store.clear(storedRateLimitKey(group, subject));
    },
  };
}

/** The policy of `options`, defaults filled in; throws for values that make no sense. */
export function failureThrottlePolicy(
  options: Partial<FailureThrottlePolicy> = {},
): FailureThrottlePolicy {
  const policy = {
    failures: options.failures ?? DEFAULT_FAILURE_THROTTLE.failures,
    windowMs: options.windowMs ?? DEFAULT_FAILURE_THROTTLE.windowMs,
    firstWaitMs: options.firstWaitMs ?? DEFAULT_FAILURE_THROTTLE.firstWaitMs,
    maximumWaitMs: options.maximumWaitMs ?? DEFAULT_FAILURE_THROTTLE.maximumWaitMs,
  };
  if (!Number.isInteger(policy.failures) || policy.failures < 1) {
    throw new RangeError("failures must be a positive integer");
  }
  for (const name of ["windowMs", "firstWaitMs", "maximumWaitMs"] as const) {
    if (!Number.isInteger(policy[name]) || policy[name] < 1000) {
      throw new RangeError(`${name} must be an integer of at least 1000`);
    }
  }
  if (policy.maximumWaitMs < policy.firstWaitMs) {
    throw new RangeError("maximumWaitMs must be at least firstWaitMs");
  }
  return policy;
}

/** When the wait after `streak` ends (epoch ms); 0 (no wait) while it is under the limit. */
function waitEndOf(streak: FailureStreak, policy: FailureThrottlePolicy): number {
  if (streak.failures < policy.failures) return 0;
  const doublings = Math.min(streak.failures - policy.failures, 32);
  return streak.lastAt + Math.min(policy.firstWaitMs * 2 ** doublings, policy.maximumWaitMs);
}

/**
 * Whether a streak no longer counts: under the limit, once its window from the first failure
 * passed; past it, once a whole window went by without an attempt after the wait ended.
 */
function isStreakOver(streak: FailureStreak, now: number, policy: FailureThrottlePolicy): boolean {
  if (streak.failures < policy.failures) return now - streak.firstAt >= policy.windowMs;
  return now >= waitEndOf(streak, policy) + policy.windowMs;
}

/** A store whose streaks stay until deleted (`SqlFailureStreakStore`, the memory store). */
export interface QuietStreakPruner {
  /** Deletes the streaks whose last failure was before `before`; returns how many. */
  deleteQuietStreaks(before: number): Promise<number>;
}

/**
 * The cleanup of a throttle's store as a {@link CleanupTask}: `quiet-failure-streaks` deletes
 * the streaks no attempt can still count on (last failure longer ago than the longest wait and
 * a window). Give it the throttle's policy.
 */
export function failureThrottleCleanups(
  store: QuietStreakPruner,
  policy: Partial<FailureThrottlePolicy> = {},
): CleanupTask[] {
  const { windowMs, maximumWaitMs } = failureThrottlePolicy(policy);
  return [
    {
      name: "quiet-failure-streaks",
      run: async (now) => ({
        removed: await store.deleteQuietStreaks(now - maximumWaitMs - windowMs),
      }),
    },
  ];
}
