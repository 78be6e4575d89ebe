export type { BodySource, HeaderSource, WebhookDelivery } from "./delivery.js";
export {
  type DeleteProcessedEventsOptions,
  deleteProcessedEvents,
  RETENTION_BATCH_SIZE,
  type WebhookEventPruner,
} from "./event-retention.js";
export type {
  WebhookClaimReference,
  WebhookClaimResult,
  WebhookEventClaim,
  WebhookEventRecord,
  WebhookEventStatus,
  WebhookEventStore,
} from "./event-store.js";
export {
  type GithubSignatureVerifierOptions,
  githubSignatureVerifier,
} from "./github-signature-verifier.js";
export { MemoryWebhookEventStore } from "./memory-event-store.js";
export type {
  PayloadSchema,
  PayloadSchemaIssue,
  PayloadSchemaResult,
} from "./payload-schema.js";
export {
  type SignatureHeaderVerifierOptions,
  signatureHeaderVerifier,
} from "./signature-header-verifier.js";
export { DEFAULT_TOLERANCE_SECONDS } from "./signature-timestamp.js";
export {
  type StandardWebhookVerifierOptions,
  standardWebhookVerifier,
} from "./standard-webhook-verifier.js";
export {
  type TimestampedSignatureVerifierOptions,
  timestampedSignatureVerifier,
} from "./timestamped-signature-verifier.js";
export { type TokenVerifierOptions, tokenVerifier } from "./token-verifier.js";
export type {
  VerificationFailure,
  VerificationResult,
  VerifiedWebhook,
  WebhookVerifier,
} from "./verifier.js";
export { type WebhookCleanupOptions, webhookCleanups } from "./webhook-cleanups.js";
export {
  createWebhookProcessor,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_STALE_AFTER_MS,
  EVENT_IN_PROGRESS_MESSAGE,
  type WebhookErrorCode,
  type WebhookEvent,
  type WebhookOutcome,
  type WebhookProcessor,
  type WebhookProcessorOptions,
} from "./webhook-processor.js";
export { type WebhookRouteOptions, webhookRoute } from "./webhook-route.js";
