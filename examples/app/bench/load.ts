import autocannon from "autocannon";
import { processTreeCpuMicros } from "./process-cpu.js";

/** One route under load: its name and the request to repeat. */
export interface LoadTarget {
  readonly name: string;
  readonly path: string;
  readonly method?: "GET" | "POST";
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Makes each request afresh (a unique event id, its signature): body and extra headers. */
  readonly eachRequest?: () => { body: string; headers: Record<string, string> };
  /** The server this target loads, when not the one `loadTargets` is given (a contender). */
  readonly server?: LoadedApp;
}

/** The median of a figure over rounds, and the lowest and highest round. */
export interface Spread {
  readonly median: number;
  readonly low: number;
  readonly high: number;
}

/** One target over its rounds: requests per second, and the server's CPU per request. */
export interface LoadResult {
  readonly name: string;
  readonly requestsPerSecond: Spread;
  /** CPU time of the app's processes (user and system, from /proc) per answered request. */
  readonly cpuMicrosPerRequest: Spread;
  /** Each round's CPU per request, in round order: for ratios taken round by round. */
  readonly cpuMicrosPerRound: readonly number[];
  readonly non2xx: number;
}

/** The app under load: where it answers, and the process whose tree does the work. */
export interface LoadedApp {
  readonly url: string;
  readonly pid: number;
}

/** One autocannon run of `target` (10 connections, `seconds` long). */
export async function measureOnce(url: string, target: LoadTarget, seconds: number) {
  const result = await autocannon({
    url: `${url}${target.path}`,
    method: target.method ?? "GET",
    headers: target.headers ?? {},
    ...(target.body === undefined ? {} : { body: target.body }),
    ...(target.eachRequest
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const fresh = target.eachRequest!();
                return {
                  ...request,
                  body: fresh.body,
                  headers: { ...request.headers, ...fresh.headers },
                };
              },
            },
          ],
        }
      : {}),
    connections: 10,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
  };
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median, lowest and highest of `values`. */
export function spreadOf(values: number[]): Spread {
  return { median: median(values), low: Math.min(...values), high: Math.max(...values) };
}

/**
 * Loads each target with autocannon (10 connections) for `seconds`, in interleaved rounds so
 * that drift in the machine's speed touches every target alike, reading the app's CPU time
 * from /proc around each round. On a shared machine CPU per request is much steadier than
 * requests per second, which also counts the load generator's share of the cores. A target
 * with its own `server` loads that one instead, so rounds alternate between contenders.
 */
export async function loadTargets(
  app: LoadedApp,
  targets: readonly LoadTarget[],
  options: { rounds?: number; seconds?: number } = {},
): Promise<LoadResult[]> {
  const rounds = options.rounds ?? 3;
  const samples = targets.map(() => ({ rates: [] as number[], cpu: [] as number[], non2xx: 0 }));
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) {
      console.error(`  round ${round + 1}/${rounds}: ${target.name}`);
      const server = target.server ?? app;
      const cpuBefore = processTreeCpuMicros(server.pid);
      const sample = await measureOnce(server.url, target, options.seconds ?? 3);
      const cpu = processTreeCpuMicros(server.pid) - cpuBefore;
      samples[index]!.rates.push(sample.requestsPerSecond);
      samples[index]!.cpu.push(cpu / sample.requests);
      samples[index]!.non2xx += sample.non2xx;
    }
  }
  return targets.map((target, index) => ({
    name: target.name,
    requestsPerSecond: spreadOf(samples[index]!.rates),
    cpuMicrosPerRequest: spreadOf(samples[index]!.cpu),
    cpuMicrosPerRound: samples[index]!.cpu,
    non2xx: samples[index]!.non2xx,
  }));
}

/** `median (low–high)`, each rounded to a whole number. */
export function spreadText({ median, low, high }: Spread): string {
  const whole = (value: number) => Math.round(value).toLocaleString("en-US");
  return `${whole(median)} (${whole(low)}–${whole(high)})`;
}

/** How many times the baseline's CPU per request a result takes. */
export function cpuRatio(result: LoadResult, baseline: LoadResult): number {
  return result.cpuMicrosPerRequest.median / baseline.cpuMicrosPerRequest.median;
}

/**
 * A Markdown table of load results: requests per second and server CPU per request, medians
 * with the range of the rounds, and each CPU per request against the first (the baseline).
 */
export function loadTable(results: readonly LoadResult[]): string {
  const baseline = results[0]!;
  return [
    `| route | requests/s | server CPU µs/request | CPU vs ${baseline.name} |`,
    "|---|---|---|---|",
    ...results.map(
      (result) =>
        `| ${result.name} | ${spreadText(result.requestsPerSecond)} | ${spreadText(result.cpuMicrosPerRequest)} | ${cpuRatio(result, baseline).toFixed(2)}x |`,
    ),
  ].join("\n");
}

/**
 * A bench's Markdown section: its title, the note that says what was measured, the table, and
 * the lines `after` it (goals met or not, what a profile showed).
 * @throws when any target got a non-2xx answer: the figures would not mean what they say.
 */
export function loadSection(
  title: string,
  note: readonly string[],
  results: readonly LoadResult[],
  after: readonly string[] = [],
): string {
  const failures = results.filter((result) => result.non2xx > 0);
  if (failures.length > 0) throw new Error(`non-2xx answers: ${JSON.stringify(failures)}`);
  const closing = after.length > 0 ? ["", ...after, ""] : [""];
  return [`## ${title}`, "", ...note, "", loadTable(results), ...closing].join("\n");
}
