export { type AddressClass, classifyAddress } from "./address-class.js";
export {
  type CheckedEndpointInput,
  checkEndpointInput,
  type EndpointInput,
  type FieldErrors,
} from "./endpoint-input.js";
export {
  newEndpointSecret,
  openEndpointSecret,
  outboundSecretKeys,
  sealEndpointSecret,
} from "./endpoint-secret.js";
export {
  eventFilterTakes,
  isEventFilterEntry,
  isEventTypeName,
  MAXIMUM_EVENT_TYPE_LENGTH,
} from "./event-types.js";
export { type GuardedFetchOptions, guardedFetch } from "./guarded-fetch.js";
export { MemoryOutboundStore, type MemoryOutboundStoreOptions } from "./memory-outbound-store.js";
export {
  MESSAGE_RETENTION_MS,
  type OutboundCleanupOptions,
  outboundCleanups,
} from "./outbound-cleanups.js";
export {
  checkOutboundTarget,
  checkOutboundUrl,
  comparableHost,
  hostAllowed,
  type OutboundPolicy,
  type OutboundUrlRefusal,
  type OutboundUrlTarget,
  type ResolveHost,
  refusedAddress,
  URL_NOT_ALLOWED,
} from "./outbound-policy.js";
export {
  OUTBOUND_ANSWER_BYTES,
  OUTBOUND_TIMEOUT_MS,
  type OutboundFetch,
  type OutboundFetchLimits,
  type OutboundOutcome,
  OutboundRefusedError,
  type OutboundRequest,
} from "./outbound-request.js";
export type {
  DeliveryAttempt,
  DeliveryState,
  EndpointChange,
  FailedDelivery,
  LoggedAttempt,
  OutboundStore,
  PruneMessagesOptions,
  StoredEndpoint,
  StoredMessage,
} from "./outbound-store.js";
export {
  type EndpointLimitReached,
  type EndpointWithSecret,
  MAXIMUM_ENDPOINTS_PER_OWNER,
  MAXIMUM_PAYLOAD_BYTES,
  OutboundWebhooks,
  type OutboundWebhooksOptions,
  PREVIOUS_SECRET_VALIDITY_MS,
  type ReplayOutcome,
} from "./outbound-webhooks.js";
export { endpointView, type WebhookEndpoint } from "./webhook-endpoint.js";
export {
  deliveryKey,
  deliveryKeyPrefix,
  parseQueuedDelivery,
  type QueuedDelivery,
  WEBHOOK_QUEUE,
} from "./webhook-queue.js";
export {
  DISABLE_AFTER_MS,
  deliveryBody,
  type WebhookSenderOptions,
  webhookSender,
} from "./webhook-sender.js";
export { URL_NOT_PLAIN, urlNotPlain } from "./written-url.js";
