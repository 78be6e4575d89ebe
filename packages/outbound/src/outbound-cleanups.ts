import type { CleanupTask } from "@tessera/core";
import type { OutboundStore } from "./outbound-store.js";

/** How long messages and their attempts are kept by default: 30 days. */
export const MESSAGE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Options of {@link outboundCleanups}. */
export interface OutboundCleanupOptions {
  /** How long a message and its attempts are kept after it was sent, in milliseconds; positive. */
  readonly retentionMs?: number | undefined;
}

/**
 * Outbound webhooks' retention as a {@link CleanupTask}: `old-webhook-messages` deletes the
 * messages sent more than `retentionMs` (30 days by default) before the run's time, with their
 * attempts, in batches. A message still being delivered (or replayed) is kept until its
 * delivery ends; endpoints are never touched.
 *
 * @throws {RangeError} for a retention that is not a positive number.
 * @example
 * ```ts
 * import { systemClock } from "@tessera/core";
 * import { MemoryOutboundStore, outboundCleanups } from "@tessera/outbound";
 * import { MemoryOutbox } from "@tessera/outbox";
 *
 * const store = new MemoryOutboundStore({ outbox: new MemoryOutbox() });
 * for (const task of outboundCleanups(store)) await task.run(systemClock());
 * ```
 */
export function outboundCleanups(
  store: Pick<OutboundStore<unknown>, "pruneMessages">,
  options: OutboundCleanupOptions = {},
): CleanupTask[] {
  const retentionMs = options.retentionMs ?? MESSAGE_RETENTION_MS;
  if (!(retentionMs > 0)) throw new RangeError("the retention must be a positive number");
  return [
    {
      name: "old-webhook-messages",
      run: async (now) => ({
        removed: await store.pruneMessages({ olderThan: now - retentionMs }),
      }),
    },
  ];
}
