import { describe, expect, it } from "vitest";
import { fixedWindow } from "../src/index.js";
import { awaitWindowRoom } from "../src/testing.js";

// On the real clock, with two-second windows: what the wait is for is real time, and a timer
// may fire late on a busy machine (the margins below allow half a second).
const WINDOW_MS = 2_000;
const NEEDED_MS = 1_400;

const msLeft = () => fixedWindow(Date.now(), WINDOW_MS).start + WINDOW_MS - Date.now();
const windowStart = () => fixedWindow(Date.now(), WINDOW_MS).start;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sleeps until the running window has between `low` and `high` milliseconds left. */
async function untilLeftBetween(low: number, high: number): Promise<void> {
  while (msLeft() < low || msLeft() > high) await sleep(10);
}

describe("awaitWindowRoom", () => {
  it("returns at once when the running window has the room asked for", async () => {
    await untilLeftBetween(NEEDED_MS + 150, WINDOW_MS);
    const start = windowStart();
    const before = Date.now();
    await awaitWindowRoom(NEEDED_MS, WINDOW_MS);
    expect(Date.now() - before).toBeLessThan(500);
    expect(windowStart()).toBe(start);
  });

  it("waits into the next window when the running one ends too soon", async () => {
    await untilLeftBetween(100, NEEDED_MS - 500);
    const start = windowStart();
    await awaitWindowRoom(NEEDED_MS, WINDOW_MS);
    expect(windowStart()).toBe(start + WINDOW_MS);
    expect(msLeft()).toBeGreaterThanOrEqual(NEEDED_MS);
  });
});
