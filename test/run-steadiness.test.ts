import { describe, expect, it } from "vitest";
import type { LoadResult } from "../examples/app/bench/load.js";
import { roundSpread, steadinessLine } from "../examples/app/bench/run-steadiness.js";

function row(name: string, rounds: number[]): LoadResult {
  const sorted = [...rounds].sort((a, b) => a - b);
  return {
    name,
    requestsPerSecond: { median: 1, low: 1, high: 1 },
    cpuMicrosPerRequest: {
      median: sorted[Math.floor(sorted.length / 2)]!,
      low: sorted[0]!,
      high: sorted.at(-1)!,
    },
    cpuMicrosPerRound: rounds,
    non2xx: 0,
  };
}

describe("the limit bench's steadiness line", () => {
  it("measures a row's spread against its median, all rounds when fewer than five", () => {
    expect(roundSpread(row("bare", [22, 23, 25]))).toBeCloseTo(3 / 23);
  });

  it("leaves out the highest and lowest of five rounds, as the median does", () => {
    expect(roundSpread(row("bare", [23, 40, 22, 24, 23]))).toBeCloseTo(1 / 23);
    expect(roundSpread(row("bare", [23, 40, 22, 38, 23]))).toBeCloseTo(15 / 23);
  });

  it("calls a run steady when every limit row stays within the tolerance, naming the widest", () => {
    expect(
      steadinessLine([row("bare", [22, 23, 24, 23, 41]), row("floor", [24, 24, 25, 26, 24])]),
    ).toBe(
      "Steady run: the limit's rounds spread at most 4%, its highest and lowest round aside (tolerance 20%).",
    );
  });

  it("calls a run disturbed and names each limit row that spread too far", () => {
    expect(
      steadinessLine([
        row("bare", [23, 42, 24, 40, 23]),
        row("floor", [24, 25, 24, 24, 24]),
        row("x", [10, 20, 12]),
      ]),
    ).toBe(
      "**A disturbed run**: the limit's rounds spread more than 20%, its highest and lowest round aside (bare 71%, x 83%), so the machine's load moved during it; read its ratios as rough, not as verdicts.",
    );
  });
});
