import { describe, expect, it } from "vitest";
import {
  createFailureThrottle,
  DEFAULT_FAILURE_THROTTLE,
  failureThrottleCleanups,
  MemoryFailureStreakStore,
} from "../src/index.js";

const MINUTE = 60_000;

function throttleAt(start = Date.UTC(2026, 0, 2, 3, 4, 0)) {
  let now = start;
  const store = new MemoryFailureStreakStore();
  const throttle = createFailureThrottle({ store, clock: () => now });
  return {
    throttle,
    store,
    advance(ms: number) {
      now += ms;
    },
  };
}

async function fail(throttle: ReturnType<typeof throttleAt>["throttle"], times: number) {
  const decisions = [];
  for (let index = 0; index < times; index += 1) {
    decisions.push(await throttle.attempt("password", "account"));
  }
  return decisions;
}

describe("createFailureThrottle", () => {
  it("lets ten failures through, refuses the eleventh for a minute, and says so once", async () => {
    const { throttle } = throttleAt();
    const decisions = await fail(throttle, 10);
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(decisions.map((decision) => decision.startsWaits)).toEqual([
      ...Array(9).fill(false),
      true,
    ]);
    expect(await throttle.attempt("password", "account")).toEqual({
      allowed: false,
      retryAfterSeconds: 60,
      startsWaits: false,
    });
    // Another subject, and the same subject in another group, are counted apart.
    expect((await throttle.attempt("password", "other")).allowed).toBe(true);
    expect((await throttle.attempt("second_factor", "account")).allowed).toBe(true);
  });

  it("doubles each wait after one, up to the hour", async () => {
    const { throttle, advance } = throttleAt();
    await fail(throttle, 10);
    const waits: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      const refused = await throttle.attempt("password", "account");
      expect(refused.allowed).toBe(false);
      waits.push(refused.retryAfterSeconds);
      advance(refused.retryAfterSeconds * 1000);
      expect((await throttle.attempt("password", "account")).allowed).toBe(true);
    }
    expect(waits).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });

  it("starts again after a success, and after a window with no failure", async () => {
    const { throttle, advance } = throttleAt();
    await fail(throttle, 10);
    await throttle.succeeded("password", "account");
    expect((await fail(throttle, 10)).every((decision) => decision.allowed)).toBe(true);
    expect((await throttle.attempt("password", "account")).allowed).toBe(false);
    // The wait (1 minute) and a whole window (15 minutes) with no attempt: a new count.
    advance(MINUTE + DEFAULT_FAILURE_THROTTLE.windowMs);
    const again = await fail(throttle, 10);
    expect(again.every((decision) => decision.allowed)).toBe(true);
    expect(again[9]?.startsWaits).toBe(true);
  });

  it("counts failures within the window from the first: nine, then fifteen minutes, starts over", async () => {
    const { throttle, advance } = throttleAt();
    await fail(throttle, 9);
    advance(DEFAULT_FAILURE_THROTTLE.windowMs);
    const decisions = await fail(throttle, 10);
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(decisions[9]?.startsWaits).toBe(true);
  });

  it("judges no more than the limit of a hundred concurrent attempts", async () => {
    const { throttle } = throttleAt();
    const decisions = await Promise.all(
      Array.from({ length: 100 }, () => throttle.attempt("password", "account")),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    expect(decisions.filter((decision) => decision.startsWaits)).toHaveLength(1);
  });

  it("lets an attempt through under the limit even when a racer wrote a later time first", async () => {
    const start = Date.UTC(2026, 0, 2, 3, 4, 0);
    const store = new MemoryFailureStreakStore();
    // Another process counted an attempt a few milliseconds after this one read its clock.
    const key = '["password","account"]';
    await store.replace(key, undefined, { failures: 3, firstAt: start, lastAt: start + 50 });
    const throttle = createFailureThrottle({ store, clock: () => start });
    expect(await throttle.attempt("password", "account")).toEqual({
      allowed: true,
      retryAfterSeconds: 0,
      startsWaits: false,
    });
    expect((await store.read(key))?.failures).toBe(4);
  });

  it("waits in real time: refused during the wait, let through after it", async () => {
    const throttle = createFailureThrottle({
      store: new MemoryFailureStreakStore(),
      failures: 2,
      firstWaitMs: 1000,
    });
    await throttle.attempt("password", "account");
    await throttle.attempt("password", "account");
    const refused = await throttle.attempt("password", "account");
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await throttle.attempt("password", "account")).allowed).toBe(true);
    expect((await throttle.attempt("password", "account")).retryAfterSeconds).toBe(2);
  });

  it("refuses a policy that makes no sense", () => {
    const store = new MemoryFailureStreakStore();
    expect(() => createFailureThrottle({ store, failures: 0 })).toThrow(/failures/);
    expect(() => createFailureThrottle({ store, firstWaitMs: 10 })).toThrow(/firstWaitMs/);
    expect(() => createFailureThrottle({ store, firstWaitMs: 5000, maximumWaitMs: 2000 })).toThrow(
      /maximumWaitMs/,
    );
  });

  it("cleans up the streaks no attempt can count on any more", async () => {
    const { throttle, store } = throttleAt();
    await fail(throttle, 10);
    const [task] = failureThrottleCleanups(store);
    expect(await task!.run(Date.UTC(2026, 0, 2, 3, 4, 0) + 60 * MINUTE)).toEqual({ removed: 0 });
    expect(await task!.run(Date.UTC(2026, 0, 2, 3, 4, 0) + 76 * MINUTE)).toEqual({ removed: 1 });
    expect(store.size).toBe(0);
  });
});
