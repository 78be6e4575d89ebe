export { type AddressClass, classifyAddress } from "./address-class.js";
export { RATE_LIMIT_WAIT_MS } from "./delivery-pacing.js";
export {
  type DeliverySlot,
  type DeliverySlotRequest,
  type EndpointPacing,
  takeSlot,
} from "./delivery-slots.js";
export {
  checkEndpointHeaders,
  HEADER_NAME_DUPLICATE,
  HEADER_NAME_INVALID,
  HEADER_NAME_RESERVED,
  HEADER_VALUE_INVALID,
  isReservedHeaderName,
  MAXIMUM_ENDPOINT_HEADERS,
  MAXIMUM_HEADER_NAME_LENGTH,
  MAXIMUM_HEADER_VALUE_LENGTH,
  TOO_MANY_HEADERS,
} from "./endpoint-headers.js";
export {
  type CheckedEndpointInput,
  checkEndpointInput,
  type EndpointInput,
  type FieldErrors,
} from "./endpoint-input.js";
export {
  checkRateLimit,
  MAXIMUM_RATE_LIMIT,
  MINIMUM_RATE_LIMIT,
  RATE_LIMIT_INVALID,
} from "./endpoint-rate-limit.js";
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
  type OutboundGet,
  type OutboundOutcome,
  type OutboundPost,
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
  UnsubscribedOwner,
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
  type TestEventSent,
} from "./outbound-webhooks.js";
export { openEndpointHeaders, sealEndpointHeaders } from "./sealed-endpoint-headers.js";
export { endpointView, type WebhookEndpoint } from "./webhook-endpoint.js";
export {
  deliveryKey,
  deliveryKeyPrefix,
  laterDeliveryKey,
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
