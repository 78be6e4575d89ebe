/** Why an attempt ended at its deadline: what the item keeps as its last error. */
export class AttemptTimeoutError extends Error {
  override readonly name = "AttemptTimeoutError";

  constructor(readonly timeoutMs: number) {
    super(`no result within ${timeoutMs} ms`);
  }
}

/**
 * Runs `work` under one deadline: its signal aborts after `timeoutMs`, and the promise then
 * rejects with an {@link AttemptTimeoutError} whether or not `work` has stopped, so a delivery
 * that ignores its signal still cannot hold its runner past the deadline.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = new AttemptTimeoutError(timeoutMs);
      deadline.abort(reason);
      reject(reason);
    }, timeoutMs);
  });
  // Started in a promise, so a `work` that throws at once rejects like one that throws later.
  const working = Promise.resolve().then(() => work(deadline.signal));
  // What it does after the deadline is no longer anyone's result.
  working.catch(() => undefined);
  try {
    return await Promise.race([working, expired]);
  } finally {
    clearTimeout(timer);
  }
}
