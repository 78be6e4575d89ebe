import type { Outbox } from "@tessera/outbox";
import {
  type DeliverySlot,
  type DeliverySlotRequest,
  type EndpointPacing,
  takeSlot,
} from "./delivery-slots.js";
import { deliveryStatesOf } from "./delivery-states.js";
import { eventFilterTakes } from "./event-types.js";
import type {
  DeliveryAttempt,
  DeliveryState,
  EndpointChange,
  FailedDelivery,
  LoggedAttempt,
  OutboundStore,
  PruneMessagesOptions,
  StoredEndpoint,
  StoredMessage,
} from "./outbound-store.js";
import { deliveryKeyPrefix, parseQueuedDelivery, WEBHOOK_QUEUE } from "./webhook-queue.js";

/** Options of {@link MemoryOutboundStore}. */
export interface MemoryOutboundStoreOptions {
  /**
   * The outbox its messages are delivered from (a `MemoryOutbox`): `pruneMessages` keeps the
   * messages its `webhook` queue still has pending items for, and throws without it.
   */
  readonly outbox?: Pick<Outbox<unknown>, "list"> | undefined;
}

/**
 * The {@link OutboundStore} in memory, for tests and prototypes: one process, lost at exit.
 * Its writes take effect at once, whatever writer they are given: a message sent inside a
 * `MemoryOutbox` transaction that then throws stays (its deliveries do not).
 */
export class MemoryOutboundStore implements OutboundStore<unknown> {
  readonly #endpoints = new Map<string, StoredEndpoint>();
  readonly #messages = new Map<string, StoredMessage>();
  readonly #attempts: LoggedAttempt[] = [];
  readonly #pacing = new Map<string, EndpointPacing>();
  readonly #outbox: Pick<Outbox<unknown>, "list"> | undefined;
  #nextAttemptId = 1;

  constructor(options: MemoryOutboundStoreOptions = {}) {
    this.#outbox = options.outbox;
  }

  async insertEndpoint(endpoint: StoredEndpoint, maximumPerOwner?: number): Promise<boolean> {
    if (this.#endpoints.has(endpoint.id)) throw new Error(`endpoint ${endpoint.id} exists`);
    // Counted with no await before the set, so that inserts made together take turns.
    let owned = 0;
    for (const each of this.#endpoints.values()) if (each.ownerId === endpoint.ownerId) owned++;
    if (maximumPerOwner !== undefined && owned >= maximumPerOwner) return false;
    this.#endpoints.set(endpoint.id, {
      ...endpoint,
      eventTypes: [...endpoint.eventTypes],
      headers: { ...endpoint.headers },
    });
    return true;
  }

  async listEndpoints(ownerId: number): Promise<StoredEndpoint[]> {
    return [...this.#endpoints.values()]
      .filter((endpoint) => endpoint.ownerId === ownerId)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  async findEndpoint(ownerId: number, id: string): Promise<StoredEndpoint | undefined> {
    const endpoint = this.#endpoints.get(id);
    return endpoint?.ownerId === ownerId ? endpoint : undefined;
  }

  async findEndpointById(id: string): Promise<StoredEndpoint | undefined> {
    return this.#endpoints.get(id);
  }

  async updateEndpoint(
    ownerId: number,
    id: string,
    change: EndpointChange,
    now: number,
  ): Promise<StoredEndpoint | undefined> {
    const endpoint = await this.findEndpoint(ownerId, id);
    if (!endpoint) return undefined;
    const next: StoredEndpoint = {
      ...endpoint,
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.eventTypes === undefined ? {} : { eventTypes: [...change.eventTypes] }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.disabledAt === undefined
        ? {}
        : { disabledAt: change.disabledAt, failingSince: null }),
      ...(change.headers === undefined ? {} : { headers: { ...change.headers } }),
      ...(change.rateLimit === undefined ? {} : { rateLimit: change.rateLimit }),
      updatedAt: now,
    };
    if (change.rateLimit !== undefined) this.#pacing.delete(id);
    this.#endpoints.set(id, next);
    return next;
  }

  async rotateEndpointSecret(
    ownerId: number,
    id: string,
    sealedSecret: string,
    previousSecretUntil: number,
    now: number,
  ): Promise<StoredEndpoint | undefined> {
    const endpoint = await this.findEndpoint(ownerId, id);
    if (!endpoint) return undefined;
    const next: StoredEndpoint = {
      ...endpoint,
      sealedSecret,
      previousSealedSecret: endpoint.sealedSecret,
      previousSecretUntil,
      updatedAt: now,
    };
    this.#endpoints.set(id, next);
    return next;
  }

  async deleteEndpoint(ownerId: number, id: string): Promise<boolean> {
    if (!(await this.findEndpoint(ownerId, id))) return false;
    this.#endpoints.delete(id);
    this.#pacing.delete(id);
    this.#dropAttempts((attempt) => attempt.endpointId === id);
    return true;
  }

  async subscribedEndpoints(
    _reader: unknown,
    ownerId: number,
    eventType: string,
  ): Promise<StoredEndpoint[]> {
    return (await this.listEndpoints(ownerId))
      .reverse()
      .filter(
        (endpoint) =>
          endpoint.disabledAt === null && eventFilterTakes(endpoint.eventTypes, eventType),
      );
  }

  async noteDeliveryFailed(
    id: string,
    now: number,
    disableIfFailingSince: number,
  ): Promise<boolean> {
    const endpoint = this.#endpoints.get(id);
    if (!endpoint) return false;
    const failingSince = endpoint.failingSince ?? now;
    const disable = endpoint.disabledAt === null && failingSince <= disableIfFailingSince;
    this.#endpoints.set(id, {
      ...endpoint,
      failingSince,
      ...(disable ? { disabledAt: now, updatedAt: now } : {}),
    });
    return disable;
  }

  async noteDeliverySucceeded(id: string): Promise<void> {
    const endpoint = this.#endpoints.get(id);
    if (endpoint) this.#endpoints.set(id, { ...endpoint, failingSince: null });
  }

  async takeDeliverySlot(
    id: string,
    request: DeliverySlotRequest,
  ): Promise<DeliverySlot | undefined> {
    if (!this.#endpoints.has(id)) return undefined;
    // Read and written with no await between: slots taken together take turns.
    const taken = takeSlot(this.#pacing.get(id) ?? { nextAt: null, queuedUntil: null }, request);
    this.#pacing.set(id, taken.pacing);
    return taken.slot;
  }

  async insertMessage(_writer: unknown, message: StoredMessage): Promise<void> {
    if (this.#messages.has(message.id)) throw new Error(`message ${message.id} exists`);
    this.#messages.set(message.id, message);
  }

  async findMessage(ownerId: number, id: string): Promise<StoredMessage | undefined> {
    const message = this.#messages.get(id);
    return message?.ownerId === ownerId ? message : undefined;
  }

  async findMessageById(id: string): Promise<StoredMessage | undefined> {
    return this.#messages.get(id);
  }

  async insertAttempt(attempt: DeliveryAttempt): Promise<void> {
    const message = this.#messages.get(attempt.messageId);
    if (!message || !this.#endpoints.has(attempt.endpointId)) return;
    this.#attempts.push({ ...attempt, id: this.#nextAttemptId++, eventType: message.eventType });
  }

  async deliveryStates(messageId: string): Promise<DeliveryState[]> {
    // Without its outbox the store cannot see what waits: it then reports attempts only.
    const items = this.#outbox
      ? await this.#outbox.list(WEBHOOK_QUEUE, { limit: Number.MAX_SAFE_INTEGER })
      : [];
    const pendingTo = items
      .filter((item) => item.status === "pending")
      .map((item) => parseQueuedDelivery(item.payload))
      .filter((delivery) => delivery?.message_id === messageId)
      .map((delivery) => delivery?.endpoint_id);
    const attempts = new Map<string, number>();
    for (const attempt of this.#attempts) {
      if (attempt.messageId !== messageId) continue;
      attempts.set(attempt.endpointId, (attempts.get(attempt.endpointId) ?? 0) + 1);
    }
    return deliveryStatesOf(pendingTo, attempts);
  }

  async listAttempts(ownerId: number, endpointId: string, limit: number): Promise<LoggedAttempt[]> {
    if (!(await this.findEndpoint(ownerId, endpointId))) return [];
    return this.#attempts
      .filter((attempt) => attempt.endpointId === endpointId)
      .reverse()
      .slice(0, limit);
  }

  async failedDeliveries(
    ownerId: number,
    since: number,
    options: { readonly endpointId?: string | undefined; readonly limit: number },
  ): Promise<FailedDelivery[]> {
    const pairs = new Map<string, FailedDelivery & { succeeded: boolean; tried: boolean }>();
    for (const attempt of this.#attempts) {
      if (this.#messages.get(attempt.messageId)?.ownerId !== ownerId) continue;
      if (options.endpointId !== undefined && attempt.endpointId !== options.endpointId) continue;
      const key = `${attempt.messageId} ${attempt.endpointId}`;
      const pair = pairs.get(key) ?? {
        messageId: attempt.messageId,
        endpointId: attempt.endpointId,
        succeeded: false,
        tried: false,
      };
      pair.succeeded ||= attempt.status === "succeeded";
      pair.tried ||= attempt.createdAt >= since;
      pairs.set(key, pair);
    }
    return [...pairs.values()]
      .filter((pair) => pair.tried && !pair.succeeded)
      .sort(
        (a, b) =>
          this.#messages.get(a.messageId)!.createdAt - this.#messages.get(b.messageId)!.createdAt ||
          a.messageId.localeCompare(b.messageId) ||
          a.endpointId.localeCompare(b.endpointId),
      )
      .slice(0, options.limit)
      .map(({ messageId, endpointId }) => ({ messageId, endpointId }));
  }

  async pruneMessages(options: PruneMessagesOptions): Promise<number> {
    if (!this.#outbox) {
      throw new Error("MemoryOutboundStore prunes only with its outbox: pass { outbox }");
    }
    // The whole queue, since a memory outbox has no other way to list its pending items.
    const items = await this.#outbox.list(WEBHOOK_QUEUE, { limit: Number.MAX_SAFE_INTEGER });
    const pendingKeys = items.filter((item) => item.status === "pending").map((item) => item.key);
    let deleted = 0;
    for (const [id, message] of this.#messages) {
      if (message.createdAt >= options.olderThan) continue;
      if (pendingKeys.some((key) => key.startsWith(deliveryKeyPrefix(id)))) continue;
      this.#messages.delete(id);
      deleted++;
    }
    this.#dropAttempts((attempt) => !this.#messages.has(attempt.messageId));
    return deleted;
  }

  async deleteOwner(ownerId: number): Promise<void> {
    for (const [id, endpoint] of this.#endpoints) {
      if (endpoint.ownerId !== ownerId) continue;
      this.#endpoints.delete(id);
      this.#pacing.delete(id);
    }
    for (const [id, message] of this.#messages) {
      if (message.ownerId === ownerId) this.#messages.delete(id);
    }
    this.#dropAttempts(
      (attempt) =>
        !this.#endpoints.has(attempt.endpointId) || !this.#messages.has(attempt.messageId),
    );
  }

  #dropAttempts(drop: (attempt: LoggedAttempt) => boolean): void {
    const kept = this.#attempts.filter((attempt) => !drop(attempt));
    this.#attempts.splice(0, this.#attempts.length, ...kept);
  }
}
