import type { WebhookEventPruner } from "./event-retention.js";
import type {
  WebhookClaimReference,
  WebhookClaimResult,
  WebhookEventClaim,
  WebhookEventRecord,
  WebhookEventStore,
} from "./event-store.js";

/**
 * A {@link WebhookEventStore} in a `Map`, for tests and single-process apps that can lose
 * their log on restart. Each method runs without an `await` inside, so it is atomic within
 * one JavaScript process; it does not share state across processes.
 */
export class MemoryWebhookEventStore implements WebhookEventStore, WebhookEventPruner {
  readonly #events = new Map<string, WebhookEventRecord>();

  async claim(claim: WebhookEventClaim): Promise<WebhookClaimResult> {
    const key = eventKey(claim.source, claim.eventId);
    const existing = this.#events.get(key);
    if (!existing) {
      this.#events.set(key, {
        source: claim.source,
        eventId: claim.eventId,
        payload: claim.payload,
        status: "processing",
        attempts: 1,
        error: null,
        createdAt: claim.now,
        updatedAt: claim.now,
      });
      return { claimed: true, attempts: 1 };
    }
    if (existing.status === "processed") return { claimed: false, status: "processed" };
    const abandoned = existing.status === "processing" && existing.updatedAt < claim.staleBefore;
    if (existing.status !== "failed" && !abandoned) {
      return { claimed: false, status: "processing", updatedAt: existing.updatedAt };
    }
    const attempts = existing.attempts + 1;
    this.#events.set(key, { ...existing, status: "processing", attempts, updatedAt: claim.now });
    return { claimed: true, attempts };
  }

  async markProcessed(claim: WebhookClaimReference): Promise<void> {
    this.#finish(claim, { status: "processed" });
  }

  async markFailed(claim: WebhookClaimReference & { readonly error: string }): Promise<void> {
    this.#finish(claim, { status: "failed", error: claim.error });
  }

  async deleteProcessedBefore(before: number, limit: number): Promise<number> {
    let deleted = 0;
    for (const [key, event] of this.#events) {
      if (deleted === limit) break;
      if (event.status === "processed" && event.updatedAt < before) {
        this.#events.delete(key);
        deleted++;
      }
    }
    return deleted;
  }

  /** The event as recorded, or undefined. */
  get(source: string, eventId: string): WebhookEventRecord | undefined {
    return this.#events.get(eventKey(source, eventId));
  }

  #finish(
    claim: WebhookClaimReference,
    change: Pick<WebhookEventRecord, "status"> & { error?: string },
  ): void {
    const key = eventKey(claim.source, claim.eventId);
    const existing = this.#events.get(key);
    if (existing?.status !== "processing" || existing.attempts !== claim.attempts) return;
    this.#events.set(key, { ...existing, ...change, updatedAt: claim.now });
  }
}

function eventKey(source: string, eventId: string): string {
  // JSON keeps the pair unambiguous whatever characters the parts contain.
  return JSON.stringify([source, eventId]);
}
