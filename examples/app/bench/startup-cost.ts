import { performance } from "node:perf_hooks";
import { type AppProcessOptions, startServerProcess } from "./app-process.js";
import { residentBytes } from "./resident-memory.js";

/** One start of a server: how long until its first 200, and its resident memory when idle. */
export interface StartupSample {
  readonly millisToFirst200: number;
  readonly idleResidentBytes: number;
}

// Long enough for start-up work (timers, the first sweep) to settle before memory is read.
const IDLE_SETTLE_MS = 2000;

/**
 * Spawns `script` (as {@link startServerProcess} does), times it from the spawn to the first
 * 200 of `GET /api/health`, waits {@link IDLE_SETTLE_MS} without requests, reads its resident
 * memory and stops it.
 */
export async function measureStartup(
  script: string,
  environment: Record<string, string>,
  options: AppProcessOptions = {},
): Promise<StartupSample> {
  const started = performance.now();
  const server = await startServerProcess(script, environment, options);
  try {
    const health = await fetch(`${server.url}/api/health`);
    await health.arrayBuffer();
    if (health.status !== 200) throw new Error(`${script}: health answered ${health.status}`);
    const millisToFirst200 = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    return { millisToFirst200, idleResidentBytes: residentBytes(server.pid) };
  } finally {
    await server.stop();
  }
}
