import {
  checkRetrySchedule,
  MAIL_RETRY_SCHEDULE,
  nextAttemptAt,
  WEBHOOK_RETRY_SCHEDULE,
} from "@tessera/outbox";
import { describe, expect, it } from "vitest";

const T0 = Date.UTC(2026, 0, 2);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("retry schedules", () => {
  it("give each failed attempt its delay, and nothing once spent", () => {
    const schedule = { delaysMs: [10_000, MINUTE] };
    expect(nextAttemptAt(schedule, 1, T0)).toBe(T0 + 10_000);
    expect(nextAttemptAt(schedule, 2, T0)).toBe(T0 + MINUTE);
    expect(nextAttemptAt(schedule, 3, T0)).toBeUndefined();
    expect(nextAttemptAt({ delaysMs: [] }, 1, T0)).toBeUndefined();
  });

  it("add up to the jitter's fraction of a delay", () => {
    const schedule = { delaysMs: [MINUTE], jitter: 0.5 };
    expect(nextAttemptAt(schedule, 1, T0, () => 0)).toBe(T0 + MINUTE);
    expect(nextAttemptAt(schedule, 1, T0, () => 0.999999)).toBe(T0 + 90_000);
  });

  it("for mail try seven times over hours; for webhooks eight, as svix does", () => {
    expect(MAIL_RETRY_SCHEDULE.delaysMs).toEqual([
      10_000,
      MINUTE,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      6 * HOUR,
    ]);
    expect(WEBHOOK_RETRY_SCHEDULE.delaysMs).toEqual([
      5000,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ]);
    expect(nextAttemptAt(WEBHOOK_RETRY_SCHEDULE, 8, T0)).toBeUndefined();
  });

  it("refuse a negative or fractional delay and a jitter outside 0..1", () => {
    expect(() => checkRetrySchedule({ delaysMs: [-1] })).toThrow(RangeError);
    expect(() => checkRetrySchedule({ delaysMs: [1.5] })).toThrow(RangeError);
    expect(() => checkRetrySchedule({ delaysMs: [1], jitter: 2 })).toThrow(RangeError);
    expect(checkRetrySchedule({ delaysMs: [0, 1] })).toEqual({ delaysMs: [0, 1] });
  });
});
