import type { StoredEndpoint } from "./outbound-store.js";

/**
 * An endpoint as its owner sees it: no secret, sealed or not, and of its custom headers only
 * the names. Times are epoch milliseconds.
 */
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
  /** The names of its custom headers, sorted regardless of case; their values are never shown. */
  readonly headerNames: readonly string[];
  /** Deliveries a second it takes at most, or null for no limit. */
  readonly rateLimit: number | null;
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
    // Names differ in more than case (the input check refuses two alike), so this is total.
    headerNames: Object.keys(endpoint.headers).sort((a, b) =>
      a.toLowerCase() < b.toLowerCase() ? -1 : 1,
    ),
    rateLimit: endpoint.rateLimit,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}
