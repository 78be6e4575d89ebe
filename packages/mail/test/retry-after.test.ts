import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../src/retry-after.js";
import { backoffDelay, resolveRetryPolicy } from "../src/retry-policy.js";

const now = Date.parse("2026-11-26T12:00:00Z");

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP dates, a past date as no wait", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 26 Nov 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Thursday, 26-Nov-26 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Thu, 26 Nov 2026 11:00:00 GMT", now)).toBe(0);
  });

  it("reads waits of any length as asked, for the outbox to cap", () => {
    expect(parseRetryAfter("99999999999", now)).toBe(99_999_999_999_000);
    expect(parseRetryAfter("9".repeat(400), now)).toBe(Number.POSITIVE_INFINITY);
    expect(parseRetryAfter("Fri, 31 Dec 9999 23:59:59 GMT", now)).toBe(
      Date.UTC(9999, 11, 31, 23, 59, 59) - now,
    );
  });

  it("ignores what is neither", () => {
    for (const value of [null, "", "-5", "1.5", "soon", "12e3", "Mon, 99 Foo 2026"]) {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    }
  });
});

describe("the retry policy", () => {
  it("backs off with full jitter under a doubling ceiling, capped at maxDelayMs", () => {
    const policy = resolveRetryPolicy("test", {
      baseDelayMs: 100,
      maxDelayMs: 350,
      random: () => 0.999,
    });
    expect([2, 3, 4, 5].map((next) => backoffDelay(policy, next))).toEqual([99, 199, 349, 349]);
    const none = resolveRetryPolicy("test", { baseDelayMs: 100, random: () => 0 });
    expect(backoffDelay(none, 2)).toBe(0);
  });

  it("has small defaults, and refuses counts and durations it cannot use", () => {
    expect(resolveRetryPolicy("test", undefined)).toMatchObject({
      attempts: 3,
      baseDelayMs: 250,
      maxDelayMs: 5_000,
      timeoutMs: 10_000,
    });
    expect(() => resolveRetryPolicy("resendMailer", { attempts: 1.5 })).toThrow(
      new TypeError(
        "resendMailer: `retry.attempts` is not a whole number of at least 1: pass 3, or 1 for no retries",
      ),
    );
    expect(() => resolveRetryPolicy("resendMailer", { maxDelayMs: Number.NaN })).toThrow(
      /`retry.maxDelayMs` is not a usable number of milliseconds/,
    );
    expect(() => resolveRetryPolicy("resendMailer", { baseDelayMs: -1 })).toThrow(
      /`retry.baseDelayMs`/,
    );
    expect(() => resolveRetryPolicy("resendMailer", { sleep: 5 as never })).toThrow(
      /`retry.sleep` is not a function/,
    );
  });
});
