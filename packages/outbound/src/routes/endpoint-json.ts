import { formatTimestamp } from "@tessera/core";
import type { LoggedAttempt } from "../outbound-store.js";
import type { WebhookEndpoint } from "../webhook-endpoint.js";

/** An endpoint as the JSON API shows it: never a secret. */
export function webhookEndpointJson(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.eventTypes,
    description: endpoint.description,
    enabled: endpoint.enabled,
    header_names: endpoint.headerNames,
    rate_limit: endpoint.rateLimit,
    disabled_at: endpoint.disabledAt === null ? null : formatTimestamp(endpoint.disabledAt),
    created_at: formatTimestamp(endpoint.createdAt),
    updated_at: formatTimestamp(endpoint.updatedAt),
  };
}

/** One delivery attempt as the JSON API shows it (the answer's text stays on the page). */
export function webhookAttemptJson(attempt: LoggedAttempt) {
  return {
    message_id: attempt.messageId,
    event_type: attempt.eventType,
    attempt: attempt.attempt,
    status: attempt.status,
    response_status: attempt.responseStatus,
    duration_ms: attempt.durationMs,
    created_at: formatTimestamp(attempt.createdAt),
  };
}
