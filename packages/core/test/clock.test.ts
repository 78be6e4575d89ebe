import { describe, expect, it } from "vitest";
import { systemClock } from "../src/index.js";

describe("systemClock", () => {
  it("reads the real time in epoch milliseconds", async () => {
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = systemClock();
    expect(now).toBeGreaterThanOrEqual(before + 20);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
