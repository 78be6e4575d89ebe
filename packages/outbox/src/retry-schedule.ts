/**
 * When to try a failed delivery again, as data: `delaysMs[n]` is the wait after the (n + 1)th
 * failed attempt, and an item that fails once more than the list is long is given up on. So
 * `{ delaysMs: [10_000, 60_000] }` tries three times: at once, 10 s after the first failure and
 * a minute after the second.
 */
export interface RetrySchedule {
  readonly delaysMs: readonly number[];
  /**
   * Spreads retries that failed together, so they do not come back together: each delay grows
   * by up to this fraction of itself, at random (0, the default, to 1).
   */
  readonly jitter?: number | undefined;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The schedule for mail: 10 s, 1 min, 5 min, 30 min, 2 h and 6 h after each failure, then
 * failed (seven attempts over about 8 h 36 min), with 10% jitter.
 */
export const MAIL_RETRY_SCHEDULE: RetrySchedule = {
  delaysMs: [10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR],
  jitter: 0.1,
};

/**
 * svix's schedule for webhooks: the first attempt at once, then 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h after each failure, then failed (eight attempts over about 27 h 35 min).
 */
export const WEBHOOK_RETRY_SCHEDULE: RetrySchedule = {
  delaysMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
};

/**
 * @throws {RangeError} for a delay that is not a whole number of milliseconds from 0, or a
 * jitter outside 0..1.
 */
export function checkRetrySchedule(schedule: RetrySchedule): RetrySchedule {
  for (const delay of schedule.delaysMs) {
    if (!Number.isSafeInteger(delay) || delay < 0) {
      throw new RangeError("each retry delay must be a whole number of milliseconds from 0");
    }
  }
  const jitter = schedule.jitter ?? 0;
  if (!(jitter >= 0 && jitter <= 1)) throw new RangeError("the jitter must be from 0 to 1");
  return schedule;
}

/**
 * When an item whose attempt number `attempts` (1 for the first) just failed at `now` is due
 * again, or undefined when the schedule is spent and the item fails. `random` (0 ≤ x < 1) picks
 * the jitter.
 */
export function nextAttemptAt(
  schedule: RetrySchedule,
  attempts: number,
  now: number,
  random: () => number = Math.random,
): number | undefined {
  const delay = schedule.delaysMs[attempts - 1];
  if (delay === undefined) return undefined;
  const jitter = schedule.jitter ?? 0;
  return now + Math.round(delay * (1 + (jitter > 0 ? jitter * random() : 0)));
}
