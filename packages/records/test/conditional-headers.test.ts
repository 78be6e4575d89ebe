// The header grammar of downloads on its own: what the route tests cannot reach through a
// 16-byte file (an empty object, tags with commas inside, obs-text).
import { describe, expect, it } from "vitest";
import { requestedRange } from "../src/byte-ranges.js";
import { ifNoneMatchHolds, ifRangeHolds, objectEntityTag } from "../src/entity-tags.js";

describe("requestedRange", () => {
  it("finds no part of an empty object: a position is unsatisfiable, a suffix gets it whole", () => {
    expect(requestedRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
    expect(requestedRange("bytes=0-0", 0)).toEqual({ kind: "unsatisfiable" });
    expect(requestedRange("bytes=-0", 0)).toEqual({ kind: "unsatisfiable" });
    // RFC 9110: a non-empty suffix of an empty object is satisfiable, but no 206 can hold it.
    expect(requestedRange("bytes=-5", 0)).toEqual({ kind: "whole" });
  });

  it("compares positions past 2^53 exactly instead of rounding them together", () => {
    const big = 2n ** 53n;
    // last < first by one: an invalid range (ignored), not an unsatisfiable one.
    expect(requestedRange(`bytes=${big + 1n}-${big}`, 10)).toEqual({ kind: "whole" });
    expect(requestedRange(`bytes=${big}-${big + 1n}`, 10)).toEqual({ kind: "unsatisfiable" });
  });

  it("reads the unit in any case and allows spaces only around list elements", () => {
    expect(requestedRange("BYTES=1-1", 3)).toEqual({
      kind: "part",
      range: { offset: 1, length: 1 },
    });
    expect(requestedRange("bytes=,\t 1-2 \t,", 3)).toEqual({
      kind: "part",
      range: { offset: 1, length: 2 },
    });
    expect(requestedRange("1-2", 3)).toEqual({ kind: "whole" });
    expect(requestedRange("bytes=\t1-2\t", 3)).toEqual({
      kind: "part",
      range: { offset: 1, length: 2 },
    });
    expect(requestedRange("bytes=1 -2", 3)).toEqual({ kind: "whole" });
  });
});

describe("entity tags", () => {
  const tag = objectEntityTag("k".repeat(43), { size: 3, version: "v" });

  it("are strong, opaque, and differ with the key, the size and the version", () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(tag).not.toContain("k".repeat(10));
    const others = [
      objectEntityTag("j".repeat(43), { size: 3, version: "v" }),
      objectEntityTag("k".repeat(43), { size: 4, version: "v" }),
      objectEntityTag("k".repeat(43), { size: 3, version: "w" }),
      objectEntityTag("k".repeat(43), { size: 3 }),
    ];
    expect(new Set([tag, ...others]).size).toBe(5);
  });

  it("If-None-Match reads a comma inside a tag as part of it, and obs-text", () => {
    expect(ifNoneMatchHolds(`"a,b", ${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHolds(`"a,b"`, `"a,b"`)).toBe(true);
    expect(ifNoneMatchHolds(`"\xe9t\xe9", ${tag}`, tag)).toBe(true);
    // A malformed element spoils the list: nothing matches, the file is sent.
    expect(ifNoneMatchHolds(`"a" "b", ${tag}`, tag)).toBe(false);
    expect(ifNoneMatchHolds(`"a\x7fb", ${tag}`, tag)).toBe(false);
    expect(ifNoneMatchHolds(`*, ${tag}`, tag)).toBe(false);
    expect(ifNoneMatchHolds(` * `, tag)).toBe(true);
  });

  it("If-Range holds for no header or exactly the current strong tag", () => {
    expect(ifRangeHolds(null, tag)).toBe(true);
    expect(ifRangeHolds(tag, tag)).toBe(true);
    expect(ifRangeHolds(` ${tag} `, tag)).toBe(true);
    expect(ifRangeHolds(`W/${tag}`, tag)).toBe(false);
    expect(ifRangeHolds(`${tag},`, tag)).toBe(false);
    expect(ifRangeHolds(`${tag}, ${tag}`, tag)).toBe(false);
    expect(ifRangeHolds("", tag)).toBe(false);
  });
});
