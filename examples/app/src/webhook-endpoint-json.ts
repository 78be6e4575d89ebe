import { formatTimestamp } from "@tessera/core";
import type { LoggedAttempt, WebhookEndpoint } from "@tessera/outbound";
import { NOTE_EVENT_TYPES } from "./records.js";

/** The events the app sends to its users' endpoints: what an endpoint's `events` may name. */
export const APP_EVENT_TYPES: readonly string[] = Object.values(NOTE_EVENT_TYPES);

/** An endpoint as the JSON API shows it: never a secret. */
export function webhookEndpointJson(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.eventTypes,
    description: endpoint.description,
    enabled: endpoint.enabled,
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
