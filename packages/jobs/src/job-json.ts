import { formatTimestamp } from "@tessera/core";
import type { JobRecord } from "./job-store.js";

/** The JSON form of a job: snake_case keys, inputs at the top level, `result` as its JSON value. */
export type JobJson = Readonly<Record<string, unknown>>;

/**
 * A job as the API shows it: `id`, `user_id`, the inputs, `status`, `external_id`, `progress`,
 * `result` (parsed), `error`, `attempts`, `created_at`, `updated_at` (UTC timestamp text).
 * Never holds the callback token.
 */
export function encodeJob(job: JobRecord): JobJson {
  return {
    id: job.id,
    user_id: job.userId,
    ...job.input,
    status: job.status,
    external_id: job.externalId,
    progress: job.progress,
    result: job.result === null ? null : JSON.parse(job.result),
    error: job.error,
    attempts: job.attempts,
    created_at: formatTimestamp(job.createdAt),
    updated_at: formatTimestamp(job.updatedAt),
  };
}
