import { describe, expect, it } from "vitest";
import { systemClock } from "../src/index.js";

describe("systemClock", () => {
  it("reads the real time in epoch milliseconds", async () => {
    const before = Date.now();
    // Node's timers run on the event loop's cached millisecond clock, so a 30 ms timer may fire
    // when Date.now has moved only 29 ms: the wait is longer than the bound it asserts.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const now = systemClock();
    expect(now).toBeGreaterThanOrEqual(before + 20);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
