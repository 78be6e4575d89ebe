import { afterEach, describe, expect, it, vi } from "vitest";
import { scheduleRepeating } from "../src/index.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("scheduleRepeating", () => {
  it("runs at once, then every interval, skipping a tick while a round is still going", async () => {
    vi.useFakeTimers();
    let rounds = 0;
    let finishRound = () => {};
    const stop = scheduleRepeating(
      () => {
        rounds++;
        return new Promise<void>((resolve) => {
          finishRound = resolve;
        });
      },
      { intervalMs: 1000, runAtStart: true, onError: () => {} },
    );
    expect(rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(2500);
    expect(rounds).toBe(1); // the first round never finished, so the ticks skipped
    finishRound();
    await vi.advanceTimersByTimeAsync(1000);
    expect(rounds).toBe(2);
    finishRound();
    await stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(rounds).toBe(2);
  });

  it("reports a failed round and goes on; stopping waits for the round under way", async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let calls = 0;
    let finished = false;
    const stop = scheduleRepeating(
      async () => {
        calls++;
        if (calls === 1) throw new Error("database is locked");
        await new Promise((resolve) => setTimeout(resolve, 500));
        finished = true;
      },
      { intervalMs: 1000, runAtStart: true, onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toEqual([new Error("database is locked")]);
    expect(calls).toBe(2);
    const stopped = stop();
    await vi.advanceTimersByTimeAsync(500);
    await stopped;
    expect(finished).toBe(true);
  });
});

describe("scheduleRepeating without runAtStart", () => {
  it("waits one interval before the first run, and refuses a non-positive interval", async () => {
    vi.useFakeTimers();
    let runs = 0;
    const stop = scheduleRepeating(
      async () => {
        runs++;
      },
      { intervalMs: 1000, onError: () => {} },
    );
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    await stop();
    expect(() => scheduleRepeating(async () => {}, { intervalMs: 0, onError: () => {} })).toThrow(
      RangeError,
    );
  });
});
