/** The statuses a remote service can report in a callback. */
export type ReportedStatus = "submitted" | "running" | "done" | "failed";

// The status words of docs/webhooks-and-jobs.md: the provider words (IN_QUEUE, IN_PROGRESS, COMPLETED,
// FAILED, CANCELLED, TIMED_OUT) plus the usual synonyms, compared without regard to case.
const WORDS: ReadonlyMap<string, ReportedStatus> = new Map([
  ["in_queue", "submitted"],
  ["queued", "submitted"],
  ["starting", "submitted"],
  ["running", "running"],
  ["started", "running"],
  ["processing", "running"],
  ["in_progress", "running"],
  ["done", "done"],
  ["completed", "done"],
  ["succeeded", "done"],
  ["success", "done"],
  ["failed", "failed"],
  ["error", "failed"],
  ["cancelled", "failed"],
  ["canceled", "failed"],
  ["timed_out", "failed"],
]);

/**
 * The status a callback's status word stands for (`IN_PROGRESS` → `running`), or undefined
 * for a word outside the list, which the callback answers 400 `unknown status <word>`.
 */
export function reportedStatus(word: string): ReportedStatus | undefined {
  // ASCII-only lower-casing: Unicode case mapping would let lookalikes (the Kelvin sign
  // lower-cases to "k") reach the table.
  return WORDS.get(word.replace(/[A-Z]/g, (letter) => letter.toLowerCase()));
}
