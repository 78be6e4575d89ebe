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

// What a delivery's key ends with once it waited for its endpoint's rate limit (n times).
const LATER = /\.later-(\d+)$/;

/**
 * The key of the item a delivery waits in for its turn at a rate-limited endpoint: the
 * delivery's key with `.later-<n>`, its n-th wait. One per wait (a sender that claims the
 * item again after a crash makes the same key, and the outbox keeps one item), and no longer
 * however many times it waits.
 */
export function laterDeliveryKey(key: string): string {
  const waited = LATER.exec(key);
  const base = waited ? key.slice(0, waited.index) : key;
  return `${base}.later-${waited ? Number(waited[1]) + 1 : 1}`;
}

/** What one outbox item of the `webhook` queue holds: which message, to which endpoint. */
export interface QueuedDelivery {
  readonly message_id: string;
  readonly endpoint_id: string;
  /**
   * Attempts the delivery made before it waited for its endpoint's rate limit in this item:
   * its attempts are numbered on from there, and its retry schedule goes on where it was.
   */
  readonly attempts_before?: number | undefined;
}

/** The item's payload read back, or undefined when it is not a delivery. */
export function parseQueuedDelivery(payload: unknown): QueuedDelivery | undefined {
  const value = payload as Partial<QueuedDelivery> | null;
  if (typeof value?.message_id !== "string" || typeof value.endpoint_id !== "string") {
    return undefined;
  }
  const before = value.attempts_before;
  return {
    message_id: value.message_id,
    endpoint_id: value.endpoint_id,
    ...(Number.isSafeInteger(before) && (before as number) > 0
      ? { attempts_before: before as number }
      : {}),
  };
}

/**
 * The outbox fairness key of every delivery to `ownerId`'s endpoints: a sender runs at most its
 * share of one owner's deliveries at once, so an owner's hanging receivers cannot hold the
 * slots every other owner's deliveries need.
 */
export function deliveryFairnessKey(ownerId: number): string {
  return `owner-${ownerId}`;
}
