import { scheduleRepeating } from "@tessera/core";
import { SWEEP_INTERVAL_MS } from "./job-limits.js";
import type { SweepReport } from "./sweep.js";

/** Options of {@link scheduleSweeps}. */
export interface SweepScheduleOptions {
  /** Period between runs (default 300 000 ms: 5 minutes). */
  readonly intervalMs?: number | undefined;
  /** Receives each run's report, for logs. */
  readonly onReport?: ((report: SweepReport) => void) | undefined;
  /**
   * Receives a run's error (a store or hook failure); the schedule goes on. Default: logged
   * with `console.error`, since an error swallowed here would hide a broken database.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/**
 * Runs `sweep` every `intervalMs` until the returned function is called; that function resolves
 * once a sweep under way has finished. A run still going when the next is due makes that tick
 * skip, so runs never overlap. For one-shot use (a cron job, `npm run sweep`, a Workers
 * scheduled trigger) call the runner's `sweep()` directly instead.
 */
export function scheduleSweeps(
  sweep: () => Promise<SweepReport>,
  options: SweepScheduleOptions = {},
): () => Promise<void> {
  return scheduleRepeating(
    async () => {
      // Not `onReport?.(await sweep())`: an absent hook would skip evaluating the sweep itself.
      const report = await sweep();
      options.onReport?.(report);
    },
    {
      intervalMs: options.intervalMs ?? SWEEP_INTERVAL_MS,
      onError: options.onError ?? ((error) => console.error("job sweep failed:", error)),
    },
  );
}
