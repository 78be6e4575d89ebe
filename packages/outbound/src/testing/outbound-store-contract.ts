import type { Outbox } from "@tessera/outbox";
import { describe, expect, it } from "vitest";
import type { OutboundStore, StoredEndpoint, StoredMessage } from "../outbound-store.js";
import { deliveryKey, WEBHOOK_QUEUE } from "../webhook-queue.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const DAY = 24 * 60 * 60 * 1000;

/** A store under test, as the maker of {@link describeOutboundStoreContract} gives it. */
export interface OutboundStoreUnderTest<Writer> {
  /** A fresh, empty store. */
  readonly store: OutboundStore<Writer>;
  /** A writer that writes at once (the database itself). */
  readonly writer: Writer;
  /**
   * The outbox the store's messages are delivered from, writing through `writer` (for a SQL
   * store, the outbox on the same database): its pending `webhook` items keep their messages.
   */
  readonly outbox: Outbox<Writer>;
  /**
   * Runs `work` in a transaction of the writer, kept when it resolves, gone when it throws; left
   * out for a store whose writes are not transactional (the memory store).
   */
  readonly transaction?: (<T>(work: (writer: Writer) => Promise<T>) => Promise<T>) | undefined;
}

let serial = 0;
/** An endpoint row for the contract: owner 1 unless told, created at T0 + its serial. */
function endpoint(change: Partial<StoredEndpoint> = {}): StoredEndpoint {
  serial++;
  return {
    id: `ep_contract${serial}_${crypto.randomUUID().slice(0, 8)}`,
    ownerId: 1,
    url: "https://hooks.example.com/in",
    eventTypes: [],
    description: "",
    sealedSecret: "sealed-current",
    previousSealedSecret: null,
    previousSecretUntil: null,
    disabledAt: null,
    failingSince: null,
    headers: {},
    rateLimit: null,
    createdAt: T0 + serial,
    updatedAt: T0 + serial,
    ...change,
  };
}

function message(change: Partial<StoredMessage> = {}): StoredMessage {
  serial++;
  return {
    id: `msg_contract${serial}_${crypto.randomUUID().slice(0, 8)}`,
    ownerId: 1,
    eventType: "note.created",
    payload: '{"id":1,"text":"a\\u0000b"}',
    createdAt: T0 + serial,
    ...change,
  };
}

/**
 * The behaviour every {@link OutboundStore} owes: endpoints scoped by owner (another owner's is
 * never found, changed or deleted) and kept to a maximum per owner, concurrent inserts included,
 * where a message's deliveries stand (for a replay), rotation in one step, the subscription filter, the failing
 * streak that disables an endpoint once, custom headers and rate limits kept and changed, the
 * slots of a rate-limited endpoint (each taken once, concurrent takers included, and a line
 * for the rest), messages (a test message's endpoint too) and attempts, the attempt log newest first,
 * failed deliveries since a time, the retention of messages (never one still being delivered),
 * an owner's deletion, and messages that roll back with their transaction. Call it at the top of a vitest file; each case gets a new store.
 *
 * @example
 * ```ts
 * import { MemoryOutboundStore } from "@tessera/outbound";
 * import { describeOutboundStoreContract } from "@tessera/outbound/testing";
 * import { MemoryOutbox } from "@tessera/outbox";
 *
 * describeOutboundStoreContract("memory", async () => {
 *   const outbox = new MemoryOutbox();
 *   return { store: new MemoryOutboundStore({ outbox }), writer: outbox, outbox };
 * });
 * ```
 */
export function describeOutboundStoreContract<Writer>(
  name: string,
  makeStore: () => Promise<OutboundStoreUnderTest<Writer>>,
) {
  describe(`OutboundStore contract: ${name}`, () => {
    it("keeps an endpoint as given, and finds it only for its owner", async () => {
      const { store } = await makeStore();
      const mine = endpoint({ eventTypes: ["note.created", "note.deleted"], description: "CRM" });
      await store.insertEndpoint(mine);
      expect(await store.findEndpoint(1, mine.id)).toEqual(mine);
      expect(await store.findEndpointById(mine.id)).toEqual(mine);
      expect(await store.findEndpoint(2, mine.id)).toBeUndefined();
      expect(await store.findEndpoint(1, "ep_missing")).toBeUndefined();
    });

    it("adds an endpoint only below the owner's maximum, counting only theirs", async () => {
      const { store } = await makeStore();
      await store.insertEndpoint(endpoint({ ownerId: 2 }));
      expect(await store.insertEndpoint(endpoint(), 2)).toBe(true);
      expect(await store.insertEndpoint(endpoint({ disabledAt: T0 }), 2)).toBe(true);
      const third = endpoint();
      expect(await store.insertEndpoint(third, 2)).toBe(false);
      expect(await store.findEndpointById(third.id)).toBeUndefined();
      expect(await store.insertEndpoint(endpoint({ ownerId: 2 }), 2)).toBe(true);
      // Without a maximum, as before.
      expect(await store.insertEndpoint(endpoint())).toBe(true);
      expect(await store.listEndpoints(1)).toHaveLength(3);
    });

    it("keeps to the maximum when many inserts for one owner come together", async () => {
      const { store } = await makeStore();
      const added = await Promise.all(
        Array.from({ length: 12 }, () => store.insertEndpoint(endpoint({ ownerId: 5 }), 4)),
      );
      expect(added.filter(Boolean)).toHaveLength(4);
      expect(await store.listEndpoints(5)).toHaveLength(4);
    });

    it("tells which endpoints a message waits to be delivered to, and each one's attempts", async () => {
      const { store, writer, outbox } = await makeStore();
      const waiting = endpoint();
      const tried = endpoint();
      for (const each of [waiting, tried]) await store.insertEndpoint(each);
      const sent = message();
      const other = message();
      for (const each of [sent, other]) await store.insertMessage(writer, each);
      expect(await store.deliveryStates(sent.id)).toEqual([]);
      const deliver = (to: StoredMessage, endpointId: string, replayToken?: string) =>
        outbox.enqueue(
          writer,
          WEBHOOK_QUEUE,
          { message_id: to.id, endpoint_id: endpointId },
          { key: deliveryKey(to.id, endpointId, replayToken) },
        );
      await deliver(sent, waiting.id, "r1");
      await deliver(other, tried.id);
      await store.insertAttempt(attemptOf(sent.id, tried.id, "failed"));
      await store.insertAttempt(attemptOf(sent.id, tried.id, "succeeded", 2));
      await store.insertAttempt(attemptOf(other.id, waiting.id, "failed"));
      const states = await store.deliveryStates(sent.id);
      expect(
        states.sort((a, b) =>
          a.endpointId === waiting.id ? -1 : b.endpointId === waiting.id ? 1 : 0,
        ),
      ).toEqual([
        { endpointId: waiting.id, pending: true, attempts: 0 },
        { endpointId: tried.id, pending: false, attempts: 2 },
      ]);
    });

    it("lists an owner's endpoints newest first, and no one else's", async () => {
      const { store } = await makeStore();
      const older = endpoint();
      const other = endpoint({ ownerId: 2 });
      const newer = endpoint();
      for (const each of [older, other, newer]) await store.insertEndpoint(each);
      expect((await store.listEndpoints(1)).map((each) => each.id)).toEqual([newer.id, older.id]);
      expect((await store.listEndpoints(2)).map((each) => each.id)).toEqual([other.id]);
      expect(await store.listEndpoints(3)).toEqual([]);
    });

    it("changes an owner's endpoint, never another owner's", async () => {
      const { store } = await makeStore();
      const mine = endpoint({ failingSince: T0 });
      await store.insertEndpoint(mine);
      expect(
        await store.updateEndpoint(2, mine.id, { url: "https://evil.example/" }, T0 + 9),
      ).toBeUndefined();
      const changed = await store.updateEndpoint(
        1,
        mine.id,
        { url: "https://new.example/", eventTypes: ["a.b"], description: "d", disabledAt: T0 + 5 },
        T0 + 9,
      );
      expect(changed).toEqual({
        ...mine,
        url: "https://new.example/",
        eventTypes: ["a.b"],
        description: "d",
        disabledAt: T0 + 5,
        failingSince: null,
        updatedAt: T0 + 9,
      });
      expect(await store.findEndpoint(1, mine.id)).toEqual(changed);
      const enabled = await store.updateEndpoint(1, mine.id, { disabledAt: null }, T0 + 10);
      expect(enabled?.disabledAt).toBeNull();
      expect(enabled?.url).toBe("https://new.example/");
    });

    it("keeps an endpoint's sealed headers and rate limit, and changes or clears them", async () => {
      const { store } = await makeStore();
      const headers = { "X-Api-Key": "sealed-key", tenant: "sealed-tenant" };
      const mine = endpoint({ headers, rateLimit: 50 });
      await store.insertEndpoint(mine);
      expect(await store.findEndpoint(1, mine.id)).toEqual(mine);
      expect((await store.listEndpoints(1))[0]).toEqual(mine);
      const limited = await store.updateEndpoint(1, mine.id, { rateLimit: 5 }, T0 + 9);
      expect(limited).toEqual({ ...mine, rateLimit: 5, updatedAt: T0 + 9 });
      const replaced = await store.updateEndpoint(1, mine.id, { headers: { B: "b" } }, T0 + 10);
      expect(replaced).toEqual({ ...mine, headers: { B: "b" }, rateLimit: 5, updatedAt: T0 + 10 });
      const cleared = await store.updateEndpoint(
        1,
        mine.id,
        { headers: {}, rateLimit: null },
        T0 + 11,
      );
      expect(cleared).toEqual({ ...mine, headers: {}, rateLimit: null, updatedAt: T0 + 11 });
      expect(await store.findEndpointById(mine.id)).toEqual(cleared);
      expect(await store.updateEndpoint(2, mine.id, { rateLimit: 9 }, T0 + 12)).toBeUndefined();
    });

    it("gives a rate-limited endpoint's slots one interval apart within the reach, then places in its line", async () => {
      const { store } = await makeStore();
      const mine = endpoint({ rateLimit: 10 });
      const other = endpoint({ rateLimit: 10 });
      for (const each of [mine, other]) await store.insertEndpoint(each);
      const take = (id: string, now = T0) =>
        store.takeDeliverySlot(id, { perSecond: 10, now, reachMs: 1000 });
      const slots = [];
      for (let index = 0; index < 13; index++) slots.push(await take(mine.id));
      expect(slots.slice(0, 11)).toEqual(
        Array.from({ length: 11 }, (_, index) => ({ taken: true, sendAt: T0 + index * 100 })),
      );
      // The next free slot is T0 + 1100: the line comes back as it comes within the reach.
      expect(slots.slice(11)).toEqual([
        { taken: false, comeBackAt: T0 + 100 },
        { taken: false, comeBackAt: T0 + 200 },
      ]);
      expect(await take(other.id)).toEqual({ taken: true, sendAt: T0 });
      // Once the slots before it have passed, a delivery goes at once.
      expect(await take(mine.id, T0 + 5000)).toEqual({ taken: true, sendAt: T0 + 5000 });
      expect(await take(mine.id, T0 + 5000)).toEqual({ taken: true, sendAt: T0 + 5100 });
      expect(await take("ep_missing")).toBeUndefined();
    });

    it("gives each slot once when many senders ask together", async () => {
      const { store } = await makeStore();
      const mine = endpoint({ rateLimit: 1000 });
      await store.insertEndpoint(mine);
      const slots = await Promise.all(
        Array.from({ length: 30 }, () =>
          store.takeDeliverySlot(mine.id, { perSecond: 1000, now: T0, reachMs: 10 }),
        ),
      );
      const sendAts = slots.flatMap((slot) => (slot?.taken ? [slot.sendAt] : []));
      const comeBacks = slots.flatMap((slot) => (slot && !slot.taken ? [slot.comeBackAt] : []));
      const inOrder = (times: number[]) => [...times].sort((a, b) => a - b);
      expect(inOrder(sendAts)).toEqual(Array.from({ length: 11 }, (_, index) => T0 + index));
      expect(inOrder(comeBacks)).toEqual(Array.from({ length: 19 }, (_, index) => T0 + 1 + index));
    });

    it("spaces slots by less than a millisecond at a high rate, and starts afresh at a new limit", async () => {
      const { store } = await makeStore();
      const mine = endpoint({ rateLimit: 10_000 });
      await store.insertEndpoint(mine);
      const take = (perSecond: number) =>
        store.takeDeliverySlot(mine.id, { perSecond, now: T0, reachMs: 1000 });
      const sendAt = async (perSecond: number) => {
        const slot = await take(perSecond);
        return slot?.taken ? slot.sendAt : undefined;
      };
      expect(await sendAt(10_000)).toBe(T0);
      expect(await sendAt(10_000)).toBeCloseTo(T0 + 0.1, 6);
      expect(await sendAt(10_000)).toBeCloseTo(T0 + 0.2, 6);
      for (let index = 0; index < 3; index++) await take(1);
      expect(await take(1)).toMatchObject({ taken: false });
      await store.updateEndpoint(1, mine.id, { rateLimit: 2 }, T0);
      expect(await take(2)).toEqual({ taken: true, sendAt: T0 });
      expect(await store.deleteEndpoint(1, mine.id)).toBe(true);
      expect(await take(2)).toBeUndefined();
    });

    it("rotates a secret in one step: the current one becomes the previous one", async () => {
      const { store } = await makeStore();
      const mine = endpoint();
      await store.insertEndpoint(mine);
      expect(
        await store.rotateEndpointSecret(2, mine.id, "sealed-x", T0 + DAY, T0 + 1),
      ).toBeUndefined();
      const rotated = await store.rotateEndpointSecret(1, mine.id, "sealed-next", T0 + DAY, T0 + 1);
      expect(rotated).toMatchObject({
        sealedSecret: "sealed-next",
        previousSealedSecret: "sealed-current",
        previousSecretUntil: T0 + DAY,
        updatedAt: T0 + 1,
      });
      const again = await store.rotateEndpointSecret(
        1,
        mine.id,
        "sealed-third",
        T0 + 2 * DAY,
        T0 + 2,
      );
      expect(again).toMatchObject({
        sealedSecret: "sealed-third",
        previousSealedSecret: "sealed-next",
      });
    });

    it("deletes an owner's endpoint with its attempts, never another owner's", async () => {
      const { store, writer } = await makeStore();
      const mine = endpoint();
      const kept = endpoint();
      const sent = message();
      await store.insertEndpoint(mine);
      await store.insertEndpoint(kept);
      await store.insertMessage(writer, sent);
      for (const each of [mine, kept]) {
        await store.insertAttempt(attemptOf(sent.id, each.id, "failed"));
      }
      expect(await store.deleteEndpoint(2, mine.id)).toBe(false);
      expect(await store.deleteEndpoint(1, mine.id)).toBe(true);
      expect(await store.deleteEndpoint(1, mine.id)).toBe(false);
      expect(await store.findEndpointById(mine.id)).toBeUndefined();
      expect(await store.listAttempts(1, mine.id, 10)).toEqual([]);
      expect(await store.listAttempts(1, kept.id, 10)).toHaveLength(1);
      // An attempt for a deleted endpoint (a delivery under way) is not kept.
      await store.insertAttempt(attemptOf(sent.id, mine.id, "failed"));
      expect(await store.failedDeliveries(1, 0, { limit: 10 })).toEqual([
        { messageId: sent.id, endpointId: kept.id },
      ]);
    });

    it("finds the enabled endpoints of an owner that take a type (an empty filter takes all)", async () => {
      const { store, writer } = await makeStore();
      const all = endpoint();
      const notes = endpoint({ eventTypes: ["note.created", "note.updated"] });
      const users = endpoint({ eventTypes: ["user.created"] });
      const disabled = endpoint({ disabledAt: T0 });
      const others = endpoint({ ownerId: 2 });
      for (const each of [all, notes, users, disabled, others]) await store.insertEndpoint(each);
      const ids = async (type: string) =>
        (await store.subscribedEndpoints(writer, 1, type)).map((each) => each.id).sort();
      expect(await ids("note.created")).toEqual([all.id, notes.id].sort());
      expect(await ids("user.created")).toEqual([all.id, users.id].sort());
      expect(await ids("note")).toEqual([all.id]);
    });

    it("finds an endpoint whose filter holds a wildcard for every type of its prefix", async () => {
      const { store, writer } = await makeStore();
      const notes = endpoint({ eventTypes: ["note.*"] });
      const mixed = endpoint({ eventTypes: ["user.created", "note.comment.*"] });
      for (const each of [notes, mixed]) await store.insertEndpoint(each);
      const ids = async (type: string) =>
        (await store.subscribedEndpoints(writer, 1, type)).map((each) => each.id).sort();
      expect(await ids("note.created")).toEqual([notes.id]);
      expect(await ids("note.comment.added")).toEqual([notes.id, mixed.id].sort());
      expect(await ids("user.created")).toEqual([mixed.id]);
      expect(await ids("note")).toEqual([]);
      expect(await ids("notebook.created")).toEqual([]);
    });

    it("disables an endpoint failing since the cut-off, once, and forgets the streak on success", async () => {
      const { store } = await makeStore();
      const mine = endpoint();
      await store.insertEndpoint(mine);
      const cutOff = (now: number) => now - 5 * DAY;
      expect(await store.noteDeliveryFailed(mine.id, T0, cutOff(T0))).toBe(false);
      expect((await store.findEndpointById(mine.id))?.failingSince).toBe(T0);
      expect(await store.noteDeliveryFailed(mine.id, T0 + DAY, cutOff(T0 + DAY))).toBe(false);
      await store.noteDeliverySucceeded(mine.id);
      expect((await store.findEndpointById(mine.id))?.failingSince).toBeNull();
      const restart = T0 + 2 * DAY;
      expect(await store.noteDeliveryFailed(mine.id, restart, cutOff(restart))).toBe(false);
      const late = restart + 5 * DAY;
      expect(await store.noteDeliveryFailed(mine.id, late - 1, cutOff(late - 1))).toBe(false);
      expect(await store.noteDeliveryFailed(mine.id, late, cutOff(late))).toBe(true);
      expect(await store.noteDeliveryFailed(mine.id, late + 1, cutOff(late + 1))).toBe(false);
      expect(await store.findEndpointById(mine.id)).toMatchObject({
        disabledAt: late,
        failingSince: restart,
      });
      expect(await store.noteDeliveryFailed("ep_gone", late, cutOff(late))).toBe(false);
    });

    it("keeps a message as given (a NUL escaped in its JSON too) and finds it only for its owner", async () => {
      const { store, writer } = await makeStore();
      const sent = message();
      await store.insertMessage(writer, sent);
      expect(await store.findMessage(1, sent.id)).toEqual(sent);
      expect(await store.findMessageById(sent.id)).toEqual(sent);
      expect(await store.findMessage(2, sent.id)).toBeUndefined();
      expect(Object.keys((await store.findMessageById(sent.id)) ?? {})).not.toContain(
        "addressedTo",
      );
    });

    it("keeps the one endpoint a test message is addressed to", async () => {
      const { store, writer } = await makeStore();
      const mine = endpoint();
      await store.insertEndpoint(mine);
      const test = message({ eventType: "test.ping", addressedTo: mine.id });
      await store.insertMessage(writer, test);
      expect(await store.findMessage(1, test.id)).toEqual(test);
      expect((await store.findMessageById(test.id))?.addressedTo).toBe(mine.id);
    });

    it("logs attempts, listed newest first with their event type, for the endpoint's owner only", async () => {
      const { store, writer } = await makeStore();
      const mine = endpoint();
      await store.insertEndpoint(mine);
      const first = message({ eventType: "note.created" });
      const second = message({ eventType: "note.deleted" });
      await store.insertMessage(writer, first);
      await store.insertMessage(writer, second);
      await store.insertAttempt(attemptOf(first.id, mine.id, "failed", 1));
      await store.insertAttempt(attemptOf(first.id, mine.id, "succeeded", 2));
      await store.insertAttempt(attemptOf(second.id, mine.id, "failed", 1));
      const log = await store.listAttempts(1, mine.id, 10);
      expect(
        log.map((each) => [each.messageId, each.eventType, each.attempt, each.status]),
      ).toEqual([
        [second.id, "note.deleted", 1, "failed"],
        [first.id, "note.created", 2, "succeeded"],
        [first.id, "note.created", 1, "failed"],
      ]);
      expect(log[1]).toEqual({
        ...attemptOf(first.id, mine.id, "succeeded", 2),
        id: expect.any(Number),
        eventType: "note.created",
      });
      expect(await store.listAttempts(1, mine.id, 1)).toHaveLength(1);
      expect(await store.listAttempts(2, mine.id, 10)).toEqual([]);
    });

    it("finds the deliveries tried since a time that never succeeded, oldest message first", async () => {
      const { store, writer } = await makeStore();
      const a = endpoint();
      const b = endpoint();
      const theirs = endpoint({ ownerId: 2 });
      for (const each of [a, b, theirs]) await store.insertEndpoint(each);
      const early = message({ createdAt: T0 - DAY });
      const failed = message();
      const recovered = message();
      const foreign = message({ ownerId: 2 });
      for (const each of [early, failed, recovered, foreign])
        await store.insertMessage(writer, each);
      await store.insertAttempt({ ...attemptOf(early.id, a.id, "failed"), createdAt: T0 - DAY });
      await store.insertAttempt(attemptOf(failed.id, a.id, "failed"));
      await store.insertAttempt(attemptOf(failed.id, b.id, "failed"));
      await store.insertAttempt(attemptOf(recovered.id, a.id, "failed"));
      await store.insertAttempt(attemptOf(recovered.id, a.id, "succeeded", 2));
      await store.insertAttempt(attemptOf(foreign.id, theirs.id, "failed"));
      expect(await store.failedDeliveries(1, T0 - 1, { limit: 10 })).toEqual(
        expect.arrayContaining([
          { messageId: failed.id, endpointId: a.id },
          { messageId: failed.id, endpointId: b.id },
        ]),
      );
      expect(await store.failedDeliveries(1, T0 - 1, { limit: 10 })).toHaveLength(2);
      expect(await store.failedDeliveries(1, T0 - 1, { endpointId: b.id, limit: 10 })).toEqual([
        { messageId: failed.id, endpointId: b.id },
      ]);
      const all = await store.failedDeliveries(1, 0, { limit: 10 });
      expect(all[0]).toEqual({ messageId: early.id, endpointId: a.id });
      expect(all).toHaveLength(3);
      expect(await store.failedDeliveries(1, 0, { limit: 1 })).toHaveLength(1);
    });

    it("prunes old messages with their attempts, never a recent one or one still being delivered", async () => {
      const { store, writer, outbox } = await makeStore();
      const mine = endpoint();
      await store.insertEndpoint(mine);
      const old = { createdAt: T0 - DAY };
      const forgotten = message(old);
      const delivered = message(old);
      const held = message(old);
      const retrying = message(old);
      const replayed = message(old);
      const recent = message({ createdAt: T0 });
      const all = [forgotten, delivered, held, retrying, replayed, recent];
      for (const each of all) {
        await store.insertMessage(writer, each);
        await store.insertAttempt(attemptOf(each.id, mine.id, "failed"));
      }
      const enqueue = (sent: StoredMessage, replayToken?: string) =>
        outbox.enqueue(
          writer,
          WEBHOOK_QUEUE,
          { message_id: sent.id, endpoint_id: mine.id },
          { key: deliveryKey(sent.id, mine.id, replayToken) },
        );
      // Delivered: its item is done. Held: a sender leases it now. Retrying: due again later.
      await enqueue(delivered);
      await enqueue(held);
      const lease = { limit: 10, leaseMs: 60_000, owner: "contract" };
      const claimed = await outbox.claim(WEBHOOK_QUEUE, lease);
      const itemOf = (sent: StoredMessage) =>
        claimed.find((item) => item.key.startsWith(`${sent.id}.`));
      expect(await outbox.complete(itemOf(delivered)!)).toBe(true);
      await enqueue(retrying);
      const [retry] = await outbox.claim(WEBHOOK_QUEUE, lease);
      expect(await outbox.retry(retry!, "HTTP 503", Date.now() + DAY)).toBe(true);
      await enqueue(replayed, "token");
      const ids = async () =>
        (await store.listAttempts(1, mine.id, 10)).map((each) => each.messageId).sort();

      expect(await store.pruneMessages({ olderThan: T0, batchSize: 1 })).toBe(2);
      expect(await store.findMessageById(forgotten.id)).toBeUndefined();
      expect(await store.findMessageById(delivered.id)).toBeUndefined();
      for (const kept of [held, retrying, replayed, recent]) {
        expect(await store.findMessageById(kept.id)).toEqual(kept);
      }
      expect(await ids()).toEqual([held.id, retrying.id, replayed.id, recent.id].sort());
      expect(await store.pruneMessages({ olderThan: T0 })).toBe(0);
      expect(await store.findEndpointById(mine.id)).toEqual(mine);
    });

    it("deletes everything of an owner, and nothing of another", async () => {
      const { store, writer } = await makeStore();
      const mine = endpoint();
      const theirs = endpoint({ ownerId: 2 });
      await store.insertEndpoint(mine);
      await store.insertEndpoint(theirs);
      const sent = message();
      const kept = message({ ownerId: 2 });
      await store.insertMessage(writer, sent);
      await store.insertMessage(writer, kept);
      await store.insertAttempt(attemptOf(sent.id, mine.id, "failed"));
      await store.insertAttempt(attemptOf(kept.id, theirs.id, "failed"));
      await store.deleteOwner(1);
      expect(await store.listEndpoints(1)).toEqual([]);
      expect(await store.findMessageById(sent.id)).toBeUndefined();
      expect(await store.findMessage(2, kept.id)).toEqual(kept);
      expect(await store.listAttempts(2, theirs.id, 10)).toHaveLength(1);
    });

    it("keeps a message only when its transaction commits", async (context) => {
      const made = await makeStore();
      const { store, transaction } = made;
      if (!transaction) return context.skip();
      const kept = message();
      const lost = message();
      await transaction((writer) => store.insertMessage(writer, kept));
      await expect(
        transaction(async (writer) => {
          await store.insertMessage(writer, lost);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await store.findMessageById(kept.id)).toEqual(kept);
      expect(await store.findMessageById(lost.id)).toBeUndefined();
    });
  });
}

function attemptOf(
  messageId: string,
  endpointId: string,
  status: "succeeded" | "failed",
  attempt = 1,
) {
  return {
    messageId,
    endpointId,
    attempt,
    status,
    responseStatus: status === "succeeded" ? 200 : 503,
    durationMs: 12,
    response: status === "succeeded" ? "ok" : "unavailable",
    createdAt: T0 + attempt,
  };
}
