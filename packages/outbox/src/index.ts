export { FinalDeliveryError, isFinalDeliveryError } from "./final-delivery-error.js";
export {
  MemoryOutbox,
  type MemoryOutboxOptions,
  MemoryOutboxTransaction,
  type MemoryOutboxWriter,
} from "./memory-outbox.js";
export type {
  ClaimOptions,
  EnqueueOptions,
  EnqueueResult,
  ListOptions,
  Outbox,
  OutboxItem,
  OutboxStatus,
  PruneOptions,
} from "./outbox.js";
export { type OutboxCleanupOptions, outboxCleanups } from "./outbox-cleanups.js";
export {
  type DrainReport,
  type OutboxRunner,
  type OutboxRunnerOptions,
  runOutbox,
} from "./outbox-runner.js";
export {
  checkRetrySchedule,
  MAIL_RETRY_SCHEDULE,
  nextAttemptAt,
  type RetrySchedule,
  WEBHOOK_RETRY_SCHEDULE,
} from "./retry-schedule.js";
