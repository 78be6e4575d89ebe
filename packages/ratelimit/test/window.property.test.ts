import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRateLimiter, fixedWindow, MemoryRateLimitStore } from "../src/index.js";

describe("fixed window arithmetic", () => {
  it("puts every instant in exactly one window and never answers Retry-After 0", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 47 }),
        fc.constantFrom(10_000, 60_000),
        (now, windowMs) => {
          const { start, secondsLeft } = fixedWindow(now, windowMs);
          expect(start % windowMs).toBe(0);
          expect(start <= now && now < start + windowMs).toBe(true);
          expect(secondsLeft).toBeGreaterThanOrEqual(1);
          expect(secondsLeft).toBeLessThanOrEqual(windowMs / 1000);
          // Retrying after the advertised delay always lands in a later window.
          expect(fixedWindow(now + secondsLeft * 1000, windowMs).start).toBeGreaterThan(start);
        },
      ),
    );
  });

  it("allows at most `limit` attempts in any one window, whatever the timing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc
          .array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 40 })
          .map((times) => times.sort((a, b) => a - b)),
        async (limit, times) => {
          let now = 0;
          const limiter = createRateLimiter({
            store: new MemoryRateLimitStore(),
            limit,
            clock: () => now,
          });
          const allowedPerWindow = new Map<number, number>();
          for (const time of times) {
            now = time;
            const decision = await limiter.attempt("g", "c");
            if (decision.allowed) {
              const start = fixedWindow(time, 60_000).start;
              allowedPerWindow.set(start, (allowedPerWindow.get(start) ?? 0) + 1);
            }
          }
          for (const count of allowedPerWindow.values()) expect(count).toBeLessThanOrEqual(limit);
          // And the first `limit` attempts of each window are allowed.
          const attemptsPerWindow = new Map<number, number>();
          for (const time of times) {
            const start = fixedWindow(time, 60_000).start;
            attemptsPerWindow.set(start, (attemptsPerWindow.get(start) ?? 0) + 1);
          }
          for (const [start, attempts] of attemptsPerWindow) {
            expect(allowedPerWindow.get(start) ?? 0).toBe(Math.min(limit, attempts));
          }
        },
      ),
    );
  });
});
