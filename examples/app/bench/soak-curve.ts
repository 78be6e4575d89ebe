/** One reading of the app during the soak. */
export interface MemorySample {
  /** Seconds since the load started. */
  readonly seconds: number;
  readonly residentBytes: number;
  /** The JavaScript heap's share of the resident memory. */
  readonly heapResidentBytes: number;
  /** The heap's live objects after V8's latest full collection, once there was one. */
  readonly liveHeapBytes: number | undefined;
  /** Whether V8 made a full collection since the reading before. */
  readonly afterFullGc: boolean;
  /** Requests answered so far. */
  readonly requests: number;
}

/** What the curve says, after the warm-up. */
export interface SoakVerdict {
  /** Readings before this many seconds are the warm-up (caches, JIT, pools filling). */
  readonly warmUpSeconds: number;
  /** Least-squares slope of resident memory over the run's second half, in MiB per minute. */
  readonly slopeMiBPerMinute: number;
  /** The same for resident memory outside the JavaScript heap (native code's). */
  readonly outsideHeapSlopeMiBPerMinute: number;
  /** Lowest and highest resident memory after the warm-up, in MiB. */
  readonly lowestMiB: number;
  readonly highestMiB: number;
  /**
   * The first and the last reading after the warm-up that followed a full collection: what is
   * left once garbage is gone, so growth from one to the other is what the app keeps.
   */
  readonly afterFullGcs: readonly [PostCollection, PostCollection] | undefined;
  readonly flat: boolean;
}

/** A reading right after a full collection, in MiB. */
export interface PostCollection {
  readonly seconds: number;
  /** The live JavaScript heap. */
  readonly liveHeapMiB: number;
  /** Resident memory outside the JavaScript heap. */
  readonly restMiB: number;
}

/**
 * Resident memory counts as flat when it grows by less than this over the second half, per
 * minute: 0.5 MiB a minute is 30 MiB an hour, well within what garbage collection moves
 * about, yet a leak of a few hundred bytes a request at this load would exceed it.
 */
export const FLAT_SLOPE_MIB_PER_MINUTE = 0.5;

const MIB = 1024 * 1024;

/**
 * The warm-up is the first 30% of the run, at most three minutes: the app compiles its
 * TypeScript as it starts, and V8 hands that memory back only a minute or two later.
 */
export function warmUpSeconds(totalSeconds: number): number {
  return Math.min(180, totalSeconds * 0.3);
}

/** Slopes over the second half, range after the warm-up, and whether resident memory is flat. */
export function soakVerdict(samples: readonly MemorySample[]): SoakVerdict {
  const total = samples.at(-1)?.seconds ?? 0;
  const warmUp = warmUpSeconds(total);
  const secondHalf = samples.filter((sample) => sample.seconds >= total / 2);
  const slopeMiBPerMinute = (slope(secondHalf, (sample) => sample.residentBytes) * 60) / MIB;
  const outsideHeapSlopeMiBPerMinute =
    (slope(secondHalf, (sample) => sample.residentBytes - sample.heapResidentBytes) * 60) / MIB;
  const afterWarmUp = samples.filter((sample) => sample.seconds >= warmUp);
  const resident = afterWarmUp.map((sample) => sample.residentBytes);
  const postCollections = afterWarmUp
    .filter((sample) => sample.afterFullGc && sample.liveHeapBytes !== undefined)
    .map(
      (sample): PostCollection => ({
        seconds: sample.seconds,
        liveHeapMiB: sample.liveHeapBytes! / MIB,
        restMiB: (sample.residentBytes - sample.heapResidentBytes) / MIB,
      }),
    );
  return {
    warmUpSeconds: warmUp,
    slopeMiBPerMinute,
    outsideHeapSlopeMiBPerMinute,
    lowestMiB: Math.min(...resident) / MIB,
    highestMiB: Math.max(...resident) / MIB,
    afterFullGcs:
      postCollections.length < 2 ? undefined : [postCollections[0]!, postCollections.at(-1)!],
    flat: slopeMiBPerMinute < FLAT_SLOPE_MIB_PER_MINUTE,
  };
}

/** Least-squares slope of `value` over seconds. */
function slope(samples: readonly MemorySample[], value: (sample: MemorySample) => number): number {
  const n = samples.length;
  if (n < 2) return 0;
  const meanX = samples.reduce((sum, sample) => sum + sample.seconds, 0) / n;
  const meanY = samples.reduce((sum, sample) => sum + value(sample), 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const sample of samples) {
    covariance += (sample.seconds - meanX) * (value(sample) - meanY);
    variance += (sample.seconds - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

/**
 * The curve as a Markdown table of about `rows` rows (the first reading, then one every so
 * often, and the last): time, resident memory, the JavaScript heap's share of it and the rest,
 * the live heap after V8's latest full collection, requests answered, and requests per second
 * since the row before.
 */
export function curveTable(samples: readonly MemorySample[], rows = 21): string {
  const every = Math.max(1, Math.round((samples.length - 1) / (rows - 1)));
  const picked = samples.filter((_, index) => index % every === 0 || index === samples.length - 1);
  const lines = [
    "| time | RSS MiB | JS heap in RSS | rest of RSS | live heap | requests | requests/s |",
    "|---|---|---|---|---|---|---|",
  ];
  picked.forEach((sample, index) => {
    const before = picked[index - 1];
    const rate = before
      ? ((sample.requests - before.requests) / (sample.seconds - before.seconds)).toFixed(0)
      : "";
    const mib = (bytes: number) => (bytes / MIB).toFixed(1);
    lines.push(
      `| ${clock(sample.seconds)} | ${mib(sample.residentBytes)} | ${mib(sample.heapResidentBytes)} | ${mib(sample.residentBytes - sample.heapResidentBytes)} | ${sample.liveHeapBytes === undefined ? "" : mib(sample.liveHeapBytes)} | ${sample.requests.toLocaleString("en-US")} | ${rate} |`,
    );
  });
  return lines.join("\n");
}

/** `m:ss` */
export function clock(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
