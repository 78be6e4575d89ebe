/**
 * How long after a mail route starts on an address it answers, at the least: several times what
 * looking the address up, storing a token and handing its mail over take (a few milliseconds on
 * SQLite, some more on PostgreSQL), so that work ends before the floor does whether or not the
 * address has an account.
 */
export const MAIL_ANSWER_FLOOR_MS = 100;

/**
 * Does what a mail route does for an address (look it up; for an account, store a token and
 * hand its mail over) and resolves no sooner than `floorMs` after it began: the answer then
 * leaves at the same time for a known and an unknown address, which the work alone would tell
 * apart by several milliseconds. A floor rather than work after the answer: it needs nothing of
 * the runtime (a Worker would cancel work left running once it answered), and the stores and
 * mail are written when the answer leaves, as they were.
 */
export async function answerAfterFloor<T>(
  work: () => Promise<T>,
  floorMs: number = MAIL_ANSWER_FLOOR_MS,
): Promise<T> {
  const floor = new Promise((resolve) => setTimeout(resolve, floorMs));
  try {
    return await work();
  } finally {
    // A failure waits too: a store that fails only for an account must not answer sooner.
    await floor;
  }
}
