import { describe, expect, it } from "vitest";
import { ExpiringCache } from "../src/index.js";

describe("ExpiringCache", () => {
  it("serves an entry until it is maximumAgeMs old, by the clock it was given", () => {
    let now = 1_000;
    const cache = new ExpiringCache<string, number>({ maximumAgeMs: 50, clock: () => now });
    cache.set("a", 1);
    now += 49;
    expect(cache.get("a")).toBe(1);
    now += 1;
    expect(cache.get("a")).toBeUndefined();
    // An entry from the future (the clock went back) is not trusted either.
    cache.set("b", 2);
    now -= 10;
    expect(cache.get("b")).toBeUndefined();
  });

  it("lets an entry go by the real clock", async () => {
    const cache = new ExpiringCache<string, number>({ maximumAgeMs: 40 });
    cache.set("a", 1);
    expect(cache.get("a")).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.get("a")).toBeUndefined();
  });

  it("keeps nothing when maximumAgeMs is 0, and refuses a negative age", () => {
    const cache = new ExpiringCache<string, number>({ maximumAgeMs: 0 });
    expect(cache.enabled).toBe(false);
    cache.set("a", 1);
    expect(cache.get("a")).toBeUndefined();
    expect(() => new ExpiringCache({ maximumAgeMs: -1 })).toThrow(RangeError);
    expect(() => new ExpiringCache({ maximumAgeMs: Number.NaN })).toThrow(RangeError);
  });

  it("keeps at most maximumEntries, the least recently used out first", () => {
    const cache = new ExpiringCache<string, number>({ maximumAgeMs: 60_000, maximumEntries: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
  });

  it("loads what it lacks once, and keeps nothing a deletion overtook", async () => {
    const cache = new ExpiringCache<string, string>({ maximumAgeMs: 60_000 });
    let loads = 0;
    const load = async () => {
      loads += 1;
      return "row";
    };
    expect(await cache.getOrLoad("a", load)).toBe("row");
    expect(await cache.getOrLoad("a", load)).toBe("row");
    expect(loads).toBe(1);

    // A load that read the row before it was deleted answers, but is not kept.
    let finishLoad!: (value: string) => void;
    const slow = cache.getOrLoad("b", () => new Promise((resolve) => (finishLoad = resolve)));
    cache.delete("b");
    finishLoad("row read before the delete");
    expect(await slow).toBe("row read before the delete");
    expect(cache.get("b")).toBeUndefined();

    // Nothing found is not kept either: a row created later is found.
    expect(await cache.getOrLoad("c", async () => undefined)).toBeUndefined();
    expect(await cache.getOrLoad("c", async () => "created")).toBe("created");
  });

  it("forgets the entries a predicate picks", () => {
    const cache = new ExpiringCache<string, { id: number }>({ maximumAgeMs: 60_000 });
    cache.set("x", { id: 1 });
    cache.set("y", { id: 2 });
    cache.deleteWhere((value) => value.id === 1);
    expect(cache.get("x")).toBeUndefined();
    expect(cache.get("y")).toEqual({ id: 2 });
  });
});
