import { type Clock, configurationError, systemClock } from "@tessera/core";

/**
 * How an HTTP adapter retries one mail (`retry` of every HTTP adapter's options). Network
 * errors, timeouts, 429 and 5xx are tried again; any other 4xx is final at once.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  readonly attempts?: number | undefined;
  /** The first backoff in milliseconds (default 250); each next one doubles, with full jitter. */
  readonly baseDelayMs?: number | undefined;
  /**
   * The longest wait between two attempts, backoff or `Retry-After` (default 5 000 ms). A
   * `Retry-After` longer than this ends the retries: the error is `retryable` and carries
   * `retryAfterMs`, for whoever schedules the next try (an outbox), instead of holding a
   * sender for minutes.
   */
  readonly maxDelayMs?: number | undefined;
  /** Each attempt's time limit in milliseconds, answer included (default 10 000). */
  readonly timeoutMs?: number | undefined;
  /** Waits between attempts (default a timer); tests pass one that records and returns at once. */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Reads `Retry-After` dates against this clock (default the system clock). */
  readonly clock?: Clock | undefined;
  /** The jitter source, in [0, 1) (default `Math.random`). */
  readonly random?: (() => number) | undefined;
}

/** A {@link RetryPolicy} with every default filled in. */
export type ResolvedRetryPolicy = {
  readonly [K in keyof RetryPolicy]-?: Exclude<RetryPolicy[K], undefined>;
};

const DEFAULTS = { attempts: 3, baseDelayMs: 250, maxDelayMs: 5_000, timeoutMs: 10_000 };

/**
 * Fills in the defaults of `policy` and checks it, throwing core's one `TypeError` naming
 * `retry.<option>` of `fn` for a count or a duration that cannot be used.
 */
export function resolveRetryPolicy(
  fn: string,
  policy: RetryPolicy | undefined,
): ResolvedRetryPolicy {
  const given = policy ?? {};
  const resolved: ResolvedRetryPolicy = {
    attempts: given.attempts ?? DEFAULTS.attempts,
    baseDelayMs: given.baseDelayMs ?? DEFAULTS.baseDelayMs,
    maxDelayMs: given.maxDelayMs ?? DEFAULTS.maxDelayMs,
    timeoutMs: given.timeoutMs ?? DEFAULTS.timeoutMs,
    sleep: given.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    clock: given.clock ?? systemClock,
    random: given.random ?? Math.random,
  };
  if (!Number.isInteger(resolved.attempts) || resolved.attempts < 1) {
    throw configurationError(
      fn,
      "retry.attempts",
      "is not a whole number of at least 1",
      "pass 3, or 1 for no retries",
    );
  }
  for (const name of ["baseDelayMs", "maxDelayMs", "timeoutMs"] as const) {
    const value = resolved[name];
    if (!Number.isFinite(value) || value < 0 || (name === "timeoutMs" && value === 0)) {
      throw configurationError(
        fn,
        `retry.${name}`,
        "is not a usable number of milliseconds",
        `pass a number such as ${DEFAULTS[name]}`,
      );
    }
  }
  for (const name of ["sleep", "clock", "random"] as const) {
    if (typeof resolved[name] !== "function") {
      throw configurationError(
        fn,
        `retry.${name}`,
        "is not a function",
        "leave it out for the default",
      );
    }
  }
  return resolved;
}

/** The wait before attempt `next` (2, 3, …): full jitter over a doubling ceiling. */
export function backoffDelay(policy: ResolvedRetryPolicy, next: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (next - 2));
  return Math.floor(policy.random() * ceiling);
}
