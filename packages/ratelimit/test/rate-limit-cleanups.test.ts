import { describe, expect, it } from "vitest";
import { type EndedWindowPruner, rateLimitCleanups } from "../src/index.js";

/** A pruner that records what it was asked and deletes `removed` counters. */
function recordingPruner(removed: number) {
  const calls: [number, number | undefined][] = [];
  const pruner: EndedWindowPruner = {
    async deleteEndedWindows(now, windowMs) {
      calls.push([now, windowMs]);
      return removed;
    },
  };
  return { pruner, calls };
}

describe("rateLimitCleanups", () => {
  it("is one task that deletes the ended windows at its run's time and counts them", async () => {
    const { pruner, calls } = recordingPruner(1500);
    const tasks = rateLimitCleanups(pruner);
    expect(tasks.map((task) => task.name)).toEqual(["ended-rate-limit-windows"]);
    expect(await tasks[0]!.run(1_700_000_000_000)).toEqual({ removed: 1500 });
    expect(calls).toEqual([[1_700_000_000_000, undefined]]);
  });

  it("passes the window the counters were counted in", async () => {
    const { pruner, calls } = recordingPruner(0);
    await rateLimitCleanups(pruner, { windowMs: 3_600_000 })[0]!.run(1000);
    expect(calls).toEqual([[1000, 3_600_000]]);
  });
});
