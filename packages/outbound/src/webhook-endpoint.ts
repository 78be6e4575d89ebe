import type { StoredEndpoint } from "./outbound-store.js";

/** An endpoint as its owner sees it: no secret, sealed or not. Times are epoch milliseconds. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly ownerId: number;
  readonly url: string;
  /** The event types it receives; empty receives every type. */
  readonly eventTypes: readonly string[];
  readonly description: string;
  readonly enabled: boolean;
  /** When it was disabled (by its owner, or after failing for 5 days), or null. */
  readonly disabledAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** The owner's view of a stored endpoint. */
export function endpointView(endpoint: StoredEndpoint): WebhookEndpoint {
  return {
    id: endpoint.id,
    ownerId: endpoint.ownerId,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes,
    description: endpoint.description,
    enabled: endpoint.disabledAt === null,
    disabledAt: endpoint.disabledAt,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}
