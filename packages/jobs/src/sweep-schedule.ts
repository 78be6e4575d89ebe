import { SWEEP_INTERVAL_MS } from "./job-limits.js";
import type { SweepReport } from "./sweep.js";

/** Options of {@link scheduleSweeps}. */
export interface SweepScheduleOptions {
  /** Period between runs (default 300 000 ms: 5 minutes). */
  readonly intervalMs?: number;
  /** Receives each run's report, for logs. */
  readonly onReport?: (report: SweepReport) => void;
  /**
   * Receives a run's error (a store or hook failure); the schedule goes on. Default: logged
   * with `console.error`, since an error swallowed here would hide a broken database.
   */
  readonly onError?: (error: unknown) => void;
}

/**
 * Runs `sweep` every `intervalMs` until the returned function is called. A run still going when
 * the next is due makes that tick skip, so runs never overlap. For one-shot use (a cron job,
 * `npm run sweep`, a Workers scheduled trigger) call the runner's `sweep()` directly instead.
 */
export function scheduleSweeps(
  sweep: () => Promise<SweepReport>,
  options: SweepScheduleOptions = {},
): () => void {
  const intervalMs = options.intervalMs ?? SWEEP_INTERVAL_MS;
  if (!(intervalMs > 0)) throw new RangeError("the sweep interval must be positive");
  const onError = options.onError ?? ((error) => console.error("job sweep failed:", error));
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      // Not `onReport?.(await sweep())`: an absent hook would skip evaluating the sweep itself.
      const report = await sweep();
      options.onReport?.(report);
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  }, intervalMs);
  return () => clearInterval(timer);
}
