/** Options of {@link scheduleRepeating}. */
export interface RepeatingTaskOptions {
  /** Period between runs, in milliseconds; positive. */
  readonly intervalMs: number;
  /** Run once at once too (a process may not live long enough for a first tick); default false. */
  readonly runAtStart?: boolean | undefined;
  /** Receives a run's error; the schedule goes on. */
  readonly onError: (error: unknown) => void;
}

/**
 * Runs `task` every `intervalMs`, outside any request, never two runs at once: a run still going
 * when the next is due makes that tick skip. The timer does not keep a Node process alive. The
 * returned function stops the schedule and resolves once a run under way has finished, so what
 * the task uses (a database) can be closed after it.
 * @throws {RangeError} for an interval that is not a positive number.
 */
export function scheduleRepeating(
  task: () => Promise<unknown>,
  options: RepeatingTaskOptions,
): () => Promise<void> {
  if (!(options.intervalMs > 0)) throw new RangeError("the interval must be a positive number");
  let current: Promise<void> | undefined;
  const run = () => {
    current ??= task()
      .then(
        () => undefined,
        (error: unknown) => options.onError(error),
      )
      .finally(() => {
        current = undefined;
      });
  };
  if (options.runAtStart) run();
  const timer = setInterval(run, options.intervalMs);
  (timer as { unref?: (() => void) | undefined }).unref?.();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
