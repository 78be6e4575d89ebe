import { Bench } from "tinybench";

/** One contender in a comparison: a name and the work measured on each iteration. */
export interface Contender {
  readonly name: string;
  readonly run: () => unknown;
}

/** Median latency of one contender and its ratio to the baseline measured in the same run. */
export interface ContenderResult {
  readonly name: string;
  readonly medianMs: number;
  readonly opsPerSecond: number;
  readonly ratioToBaseline: number;
}

/**
 * Measures contenders side by side (tinybench, medians) and returns a Markdown section whose
 * table gives each median and its ratio to the first contender, the baseline. Each contender
 * runs for at least `timeMs` and at least `iterations` times (64 unless given: lower it for
 * work that takes seconds).
 */
export async function compareContenders(
  title: string,
  contenders: readonly [Contender, ...Contender[]],
  options: { timeMs?: number; iterations?: number; note?: string } = {},
): Promise<{ markdown: string; results: ContenderResult[] }> {
  const bench = new Bench({
    time: options.timeMs ?? 1500,
    warmupTime: 300,
    ...(options.iterations === undefined
      ? {}
      : { iterations: options.iterations, warmupIterations: Math.min(16, options.iterations) }),
  });
  for (const contender of contenders) bench.add(contender.name, contender.run);
  await bench.run();
  const medians = bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`);
    return result.latency.p50;
  });
  const baseline = medians[0]!;
  const results = contenders.map((contender, index) => ({
    name: contender.name,
    medianMs: medians[index]!,
    opsPerSecond: 1000 / medians[index]!,
    ratioToBaseline: medians[index]! / baseline,
  }));
  const rows = results.map(
    (row) =>
      `| ${row.name} | ${formatMs(row.medianMs)} | ${Math.round(row.opsPerSecond).toLocaleString("en-US")} | ${row.ratioToBaseline.toFixed(2)}x |`,
  );
  const markdown = [
    `### ${title}`,
    "",
    ...(options.note ? [options.note, ""] : []),
    `| contender | median | ops/s (from median) | time vs ${results[0]!.name} |`,
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
  return { markdown, results };
}

function formatMs(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(2)} µs`;
}
