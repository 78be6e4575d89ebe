import { WEBHOOK_QUEUE } from "@tessera/outbound";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { sqliteFile } from "./support/databases.js";
import { type ReceivedRequest, testReceiver } from "./support/receiver.js";
import { webhooksOn } from "./support/senders.js";

const receiver = await testReceiver();
let paths = 0;
function receiverPath(statuses: number[] = [200]) {
  const path = `/test-event-${++paths}`;
  let calls = 0;
  receiver.on(path, (_request, response) => {
    response.writeHead(statuses[Math.min(calls++, statuses.length - 1)]!).end("got it");
  });
  return { url: receiver.url(path), received: () => receiver.receivedAt(path) };
}

const verified = (request: ReceivedRequest, secret: string) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>);

async function setUp() {
  const { database } = await sqliteFile();
  const wired = webhooksOn(database);
  const tested = receiverPath();
  const other = receiverPath();
  const create = async (input: Record<string, unknown>) => {
    const created = await wired.webhooks.createEndpoint(1, input);
    if (!created.ok) throw new Error(JSON.stringify(created));
    return created.value;
  };
  // The tested endpoint takes only notes; the other one every type.
  const endpoint = await create({ url: tested.url, events: ["note.*"], headers: { "X-K": "v" } });
  await create({ url: other.url });
  return { database, ...wired, tested, other, ...endpoint };
}

describe("OutboundWebhooks.sendTestEvent", () => {
  it("delivers a signed event of the type to that endpoint alone, whatever its filter", async () => {
    const { webhooks, sender, tested, other, endpoint, secret, time } = await setUp();
    const sent = await webhooks.sendTestEvent(1, endpoint.id, "invoice.paid", { amount: 12 });
    expect(sent).toEqual({ messageId: expect.stringMatching(/^msg_/) });
    expect(await sender().drain()).toMatchObject({ delivered: 1, failed: 0 });
    const [request] = tested.received();
    expect(verified(request!, secret)).toEqual({
      type: "invoice.paid",
      timestamp: new Date(time.now).toISOString(),
      data: { amount: 12 },
    });
    expect(request!.headers["webhook-id"]).toBe(sent!.messageId);
    expect(request!.headers["x-k"]).toBe("v");
    expect(other.received()).toEqual([]);
    expect(await webhooks.listAttempts(1, endpoint.id)).toEqual([
      expect.objectContaining({
        messageId: sent!.messageId,
        eventType: "invoice.paid",
        attempt: 1,
        status: "succeeded",
        responseStatus: 200,
        response: "got it",
      }),
    ]);
  });

  it("is replayed to that endpoint alone", async () => {
    const { webhooks, sender, tested, other, endpoint, secret } = await setUp();
    const sent = await webhooks.sendTestEvent(1, endpoint.id, "note.created", { n: 1 });
    const runner = sender();
    await runner.drain();
    expect(await webhooks.replayMessage(1, sent!.messageId)).toEqual({
      queued: 1,
      alreadyPending: 0,
    });
    await runner.drain();
    expect(tested.received()).toHaveLength(2);
    for (const request of tested.received()) verified(request, secret);
    expect(other.received()).toEqual([]);
    expect((await webhooks.listAttempts(1, endpoint.id))?.map((a) => a.messageId)).toEqual([
      sent!.messageId,
      sent!.messageId,
    ]);
  });

  it("reaches a disabled endpoint (its owner asked), leaving it disabled", async () => {
    const { webhooks, sender, tested, endpoint } = await setUp();
    await webhooks.updateEndpoint(1, endpoint.id, { enabled: false });
    const sent = await webhooks.sendTestEvent(1, endpoint.id, "note.created", {});
    expect(await sender().drain()).toMatchObject({ delivered: 1 });
    expect(tested.received().map((request) => request.headers["webhook-id"])).toEqual([
      sent!.messageId,
    ]);
    expect(await webhooks.findEndpoint(1, endpoint.id)).toMatchObject({ enabled: false });
  });

  it("is retried like any delivery", async () => {
    const { webhooks, sender, time, endpointAt } = await setUp();
    const failing = receiverPath([503, 200]);
    const { endpoint } = await endpointAt(1, failing.url);
    await webhooks.sendTestEvent(1, endpoint.id, "note.created", {});
    const runner = sender();
    expect(await runner.drain()).toMatchObject({ retried: 1 });
    time.now += 1000;
    expect(await runner.drain()).toMatchObject({ delivered: 1 });
    expect((await webhooks.listAttempts(1, endpoint.id))?.map((a) => a.status)).toEqual([
      "succeeded",
      "failed",
    ]);
  });

  it("is nothing for another owner's endpoint or a missing one, and refuses a bad type or payload", async () => {
    const { webhooks, outbox, endpoint } = await setUp();
    const queued = async () => (await outbox.list(WEBHOOK_QUEUE, { limit: 10 })).length;
    expect(await webhooks.sendTestEvent(2, endpoint.id, "note.created", {})).toBeUndefined();
    expect(await webhooks.sendTestEvent(1, "ep_missing", "note.created", {})).toBeUndefined();
    for (const type of ["", "has space", "x".repeat(101), "note.*"]) {
      await expect(webhooks.sendTestEvent(1, endpoint.id, type, {})).rejects.toThrow(RangeError);
    }
    await expect(webhooks.sendTestEvent(1, endpoint.id, "note.created", undefined)).rejects.toThrow(
      "the payload has no JSON form",
    );
    await expect(
      webhooks.sendTestEvent(1, endpoint.id, "note.created", "x".repeat(300_000)),
    ).rejects.toThrow(RangeError);
    expect(await queued()).toBe(0);
  });
});
