import { describe, expect, it } from "vitest";
import { loadOnFirstUse } from "../src/index.js";

describe("loadOnFirstUse", () => {
  it("loads nothing until the first call, then once for every call", async () => {
    let loads = 0;
    const load = loadOnFirstUse(async () => {
      loads += 1;
      return { library: "loaded" };
    });
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([load(), load()]);
    const third = await load();
    expect(loads).toBe(1);
    expect(first).toEqual({ library: "loaded" });
    expect(second).toBe(first);
    expect(third).toBe(first);
  });

  it("tries a failed load again on the next call, and keeps the one that succeeds", async () => {
    const outcomes = [new Error("module not found"), "loaded"];
    let loads = 0;
    const load = loadOnFirstUse(async () => {
      const outcome = outcomes[loads++];
      if (outcome instanceof Error) throw outcome;
      return outcome;
    });
    await expect(load()).rejects.toThrow("module not found");
    expect(await load()).toBe("loaded");
    expect(await load()).toBe("loaded");
    expect(loads).toBe(2);
  });
});
