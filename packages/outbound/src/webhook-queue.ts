/** The outbox queue webhook deliveries wait in. */
export const WEBHOOK_QUEUE = "webhook";

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
