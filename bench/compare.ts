import { Bench } from "tinybench";

/** One contender in a comparison: a name and the work measured on each iteration. */
export interface Contender {
  readonly name: string;
  readonly run: () => unknown;
}

/** Median latency of one contender and its ratio to the baseline measured in the same run. */
export interface ContenderResult {
  readonly name: string;
  /** The median of the rounds' medians. */
  readonly medianMs: number;
  /** The lowest and the highest round's median. */
  readonly lowMs: number;
  readonly highMs: number;
  readonly opsPerSecond: number;
  readonly ratioToBaseline: number;
}

/** How many interleaved rounds each comparison runs, so each figure comes with its range. */
const ROUNDS = 3;

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Measures contenders side by side (tinybench) and returns a Markdown section whose table gives
 * each median and its ratio to the first contender, the baseline. The contenders run in
 * {@link ROUNDS} interleaved rounds, so that a stretch of a busy machine touches them alike; a
 * figure is the median of the rounds' medians, with the lowest and highest round beside it.
 * Each contender runs for at least `timeMs` and at least `iterations` times in all (64 unless
 * given: lower it for work that takes seconds).
 */
export async function compareContenders(
  title: string,
  contenders: readonly [Contender, ...Contender[]],
  options: { timeMs?: number; iterations?: number; note?: string } = {},
): Promise<{ markdown: string; results: ContenderResult[] }> {
  const roundMedians: number[][] = contenders.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const iterations =
      options.iterations === undefined ? undefined : Math.ceil(options.iterations / ROUNDS);
    const bench = new Bench({
      time: (options.timeMs ?? 1500) / ROUNDS,
      warmupTime: 100,
      ...(iterations === undefined
        ? {}
        : { iterations, warmupIterations: Math.min(16, iterations) }),
    });
    for (const contender of contenders) bench.add(contender.name, contender.run);
    await bench.run();
    bench.tasks.forEach((task, index) => {
      const result = task.result;
      if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`);
      roundMedians[index]!.push(result.latency.p50);
    });
  }
  const medians = roundMedians.map(medianOf);
  const baseline = medians[0]!;
  const results = contenders.map((contender, index) => ({
    name: contender.name,
    medianMs: medians[index]!,
    lowMs: Math.min(...roundMedians[index]!),
    highMs: Math.max(...roundMedians[index]!),
    opsPerSecond: 1000 / medians[index]!,
    ratioToBaseline: medians[index]! / baseline,
  }));
  const rows = results.map(
    (row) =>
      `| ${row.name} | ${formatMs(row.medianMs)} (${formatRange(row)}) | ${Math.round(row.opsPerSecond).toLocaleString("en-US")} | ${row.ratioToBaseline.toFixed(2)}x |`,
  );
  const markdown = [
    `### ${title}`,
    "",
    ...(options.note ? [options.note, ""] : []),
    `| contender | median (range of ${ROUNDS} rounds) | ops/s (from median) | time vs ${results[0]!.name} |`,
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
  return { markdown, results };
}

/** The lowest and highest round, in the unit {@link formatMs} gives the median. */
function formatRange(row: ContenderResult): string {
  const inMs = row.medianMs >= 1;
  const number = (ms: number) => (inMs ? ms.toFixed(2) : (ms * 1000).toFixed(2));
  return `${number(row.lowMs)}–${number(row.highMs)}`;
}

function formatMs(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(2)} µs`;
}
