import { describe, expect, it } from "vitest";
import { LAST_USED_WRITE_INTERVAL_MS, touchWhenStale } from "../src/last-used.js";

describe("touchWhenStale", () => {
  const now = 1_700_000_000_000;
  async function touches(lastUsedAt: number | null): Promise<Array<[number, number]>> {
    const calls: Array<[number, number]> = [];
    await touchWhenStale(lastUsedAt, now, async (usedAt, staleAt) => {
      calls.push([usedAt, staleAt]);
    });
    return calls;
  }
  const staleAt = now - LAST_USED_WRITE_INTERVAL_MS;

  it("writes a first use, with the stale bound the store's UPDATE checks", async () => {
    expect(await touches(null)).toEqual([[now, staleAt]]);
  });

  it("writes a use read an hour ago or earlier, and none read more recently", async () => {
    expect(await touches(staleAt)).toEqual([[now, staleAt]]);
    expect(await touches(staleAt - 1)).toEqual([[now, staleAt]]);
    expect(await touches(staleAt + 1)).toEqual([]);
    expect(await touches(now)).toEqual([]);
  });
});
