/** The outbox queue webhook deliveries wait in. */
export const WEBHOOK_QUEUE = "webhook";

/**
 * What the outbox key of every delivery of a message starts with: its id and a dot. A store
 * finds the message's items still pending by it (the SQL store's prune spells it in SQL).
 */
export function deliveryKeyPrefix(messageId: string): string {
  return `${messageId}.`;
}

/**
 * The outbox key of a delivery of `messageId` to `endpointId`: one item per message and
 * endpoint, and a replay a new item of its own (`replayToken` set).
 */
export function deliveryKey(messageId: string, endpointId: string, replayToken?: string): string {
  const replay = replayToken === undefined ? "" : `.replay-${replayToken}`;
  return `${deliveryKeyPrefix(messageId)}${endpointId}${replay}`;
}

/** What one outbox item of the `webhook` queue holds: which message, to which endpoint. */
export interface QueuedDelivery {
  readonly message_id: string;
  readonly endpoint_id: string;
}

/** The item's payload read back, or undefined when it is not a delivery. */
export function parseQueuedDelivery(payload: unknown): QueuedDelivery | undefined {
  const value = payload as Partial<QueuedDelivery> | null;
  return typeof value?.message_id === "string" && typeof value.endpoint_id === "string"
    ? { message_id: value.message_id, endpoint_id: value.endpoint_id }
    : undefined;
}

/**
 * The outbox fairness key of every delivery to `ownerId`'s endpoints: a sender runs at most its
 * share of one owner's deliveries at once, so an owner's hanging receivers cannot hold the
 * slots every other owner's deliveries need.
 */
export function deliveryFairnessKey(ownerId: number): string {
  return `owner-${ownerId}`;
}
