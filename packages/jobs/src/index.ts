export {
  MAX_ERROR_LENGTH,
  type ReportedEvent,
  readCallbackEvent,
} from "./callback-event.js";
export type { CallbackHandler } from "./callback-handler.js";
export { jobCallbackToken, jobTokenKeys } from "./callback-token.js";
export type { CallbackDelivery, CallbackVerifier } from "./callback-verifier.js";
export type {
  JobChange,
  JobChangeCause,
  JobChangeHook,
} from "./job-change.js";
export {
  defineJob,
  JOB_TABLE_COLUMNS,
  type JobDefinition,
  type JobInput,
} from "./job-definition.js";
export { type JobEnvironment, readJobEnvironment } from "./job-environment.js";
export { inputFromColumns, inputToColumns, type JobInputResult } from "./job-input.js";
export { encodeJob, type JobJson } from "./job-json.js";
export {
  MAX_ATTEMPTS,
  RETRIES_PER_SWEEP,
  RETRY_AFTER_MS,
  STALE_AFTER_MS,
  SUBMISSION_TIMEOUT_MS,
  SWEEP_INTERVAL_MS,
} from "./job-limits.js";
export { jobOpenApi } from "./job-openapi.js";
export { createJobRunner, type JobRunner, type JobRunnerOptions } from "./job-runner.js";
export { isFinishedStatus, JOB_STATUSES, type JobStatus, jobStatusRank } from "./job-status.js";
export type { JobRecord, JobStore, NewJob, RetryClaim } from "./job-store.js";
export { type JsonJobRoutesOptions, jsonJobRoutes } from "./json-job-routes.js";
export { MemoryJobStore } from "./memory-job-store.js";
export { advanceJob, type JobEvent, type JobState } from "./state-machine.js";
export { type ReportedStatus, reportedStatus } from "./status-words.js";
export type { SubmissionBody } from "./submission.js";
export type { SweepReport } from "./sweep.js";
export { type SweepScheduleOptions, scheduleSweeps } from "./sweep-schedule.js";
