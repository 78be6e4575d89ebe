// The job constants of docs/limits.md ("Webhooks and jobs").

/** At most this many submission attempts per job (`MAX_ATTEMPTS`). */
export const MAX_ATTEMPTS = 3;
/** A queued job is retried once its last attempt is older than this (`RETRY_AFTER`, 60 s). */
export const RETRY_AFTER_MS = 60_000;
/** A submitted or running job with no news for this long is failed (one hour). */
export const STALE_AFTER_MS = 3_600_000;
/** The sweep retries at most this many queued jobs per run. */
export const RETRIES_PER_SWEEP = 10;
/** The sweep's default period: every 5 minutes. */
export const SWEEP_INTERVAL_MS = 300_000;
/** Default time allowed for one submission, answer included. */
export const SUBMISSION_TIMEOUT_MS = 10_000;
