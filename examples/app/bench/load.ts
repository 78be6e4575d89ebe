import autocannon from "autocannon";

/** One route under load: its name and the request to repeat. */
export interface LoadTarget {
  readonly name: string;
  readonly path: string;
  readonly method?: "GET" | "POST";
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Makes each request afresh (a unique event id, its signature): body and extra headers. */
  readonly eachRequest?: () => { body: string; headers: Record<string, string> };
}

/** Requests per second of one target, one median over several rounds. */
export interface LoadResult {
  readonly name: string;
  readonly medianRequestsPerSecond: number;
  readonly non2xx: number;
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

/**
 * Loads each target with autocannon (10 connections) for `seconds`, in interleaved rounds so
 * that drift in the machine's speed touches every target alike; reports the median round.
 */
export async function loadTargets(
  url: string,
  targets: readonly LoadTarget[],
  options: { rounds?: number; seconds?: number } = {},
): Promise<LoadResult[]> {
  const rounds = options.rounds ?? 3;
  const samples = targets.map(() => ({ rates: [] as number[], non2xx: 0 }));
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) {
      console.error(`  round ${round + 1}/${rounds}: ${target.name}`);
      const sample = await measureOnce(url, target, options.seconds ?? 3);
      samples[index]!.rates.push(sample.requestsPerSecond);
      samples[index]!.non2xx += sample.non2xx;
    }
  }
  return targets.map((target, index) => ({
    name: target.name,
    medianRequestsPerSecond: median(samples[index]!.rates),
    non2xx: samples[index]!.non2xx,
  }));
}

/** A Markdown table of load results, each with its ratio to the first (the baseline). */
export function loadTable(results: readonly LoadResult[]): string {
  const baseline = results[0]!.medianRequestsPerSecond;
  return [
    `| route | requests/s (median of rounds) | vs ${results[0]!.name} |`,
    "|---|---|---|",
    ...results.map(
      (result) =>
        `| ${result.name} | ${Math.round(result.medianRequestsPerSecond).toLocaleString("en-US")} | ${(result.medianRequestsPerSecond / baseline).toFixed(2)}x |`,
    ),
  ].join("\n");
}

/**
 * A bench's Markdown section: its title, the note that says what was measured, and the table.
 * @throws when any target got a non-2xx answer: the figures would not mean what they say.
 */
export function loadSection(
  title: string,
  note: readonly string[],
  results: readonly LoadResult[],
): string {
  const failures = results.filter((result) => result.non2xx > 0);
  if (failures.length > 0) throw new Error(`non-2xx answers: ${JSON.stringify(failures)}`);
  return [`## ${title}`, "", ...note, "", loadTable(results), ""].join("\n");
}
