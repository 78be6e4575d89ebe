import type { LoadResult } from "./load.js";

/**
 * How far a row's rounds spread around their median, leaving out its highest and lowest round
 * when it has five or more: (highest − lowest) / median of the CPU per request of the rest. The
 * medians the verdicts use already ignore one disturbed round; this asks whether more were.
 */
export function roundSpread(row: LoadResult): number {
  const rounds = [...row.cpuMicrosPerRound].sort((a, b) => a - b);
  const kept = rounds.length >= 5 ? rounds.slice(1, -1) : rounds;
  const median = kept[Math.floor(kept.length / 2)]!;
  return (kept.at(-1)! - kept[0]!) / median;
}

/**
 * One line saying whether the run can be read as a verdict: whether each of the `limits` rows
 * (the bare server's, the framework's), which do the same fixed work every round, kept its
 * rounds within `tolerance` of its median. On a quiet machine they spread a few percent; a
 * neighbour's load shows as a wide spread.
 */
export function steadinessLine(limits: readonly LoadResult[], tolerance = 0.2): string {
  const percent = (value: number) => `${Math.round(value * 100)}%`;
  const unsteady = limits.filter((row) => roundSpread(row) > tolerance);
  if (unsteady.length === 0) {
    const widest = Math.max(...limits.map(roundSpread));
    return `Steady run: the limit's rounds spread at most ${percent(widest)}, its highest and lowest round aside (tolerance ${percent(tolerance)}).`;
  }
  const named = unsteady.map((row) => `${row.name} ${percent(roundSpread(row))}`).join(", ");
  return `**A disturbed run**: the limit's rounds spread more than ${percent(tolerance)}, its highest and lowest round aside (${named}), so the machine's load moved during it; read its ratios as rough, not as verdicts.`;
}
