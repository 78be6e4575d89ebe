import { systemClock } from "@tessera/core";
import { newEndpointSecret, sealEndpointSecret, WEBHOOK_QUEUE } from "@tessera/outbound";
import { nodeGuardedFetch } from "@tessera/outbound/node";
import { signStandardWebhook } from "@tessera/signer";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { describe, expect, it } from "vitest";
import { sqliteFile } from "./support/databases.js";
import { type ReceivedRequest, testReceiver } from "./support/receiver.js";
import { secretKeys, webhooksOn } from "./support/senders.js";

const receiver = await testReceiver();
const DAY = 24 * 60 * 60 * 1000;
let paths = 0;
/** A new path on the shared receiver, answering `statuses` in turn (then the last one). */
function receiverPath(statuses: number[] = [200]) {
  const path = `/hook-${++paths}`;
  let calls = 0;
  receiver.on(path, (_request, response) => {
    const status = statuses[Math.min(calls++, statuses.length - 1)]!;
    response.writeHead(status).end(status < 300 ? "ok" : `failing with ${status}`);
  });
  return { path, url: receiver.url(path), received: () => receiver.receivedAt(path) };
}

const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;

/** Verifies a delivery with both reference libraries; returns the parsed body. */
function verifiedBoth(request: ReceivedRequest, secret: string) {
  const standard = new StandardWebhook(secret).verify(request.body, headersOf(request));
  const svix = new SvixWebhook(secret).verify(request.body, headersOf(request));
  expect(svix).toEqual(standard);
  return standard;
}

describe("webhookSender", () => {
  it("delivers a signed {type, timestamp, data} that standardwebhooks and svix verify, and logs it", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt, time } = webhooksOn(database);
    const target = receiverPath();
    const { endpoint, secret } = await endpointAt(1, target.url);
    const { messageId } = await webhooks.send(database, 1, "note.created", { id: 7, title: "Hé" });
    expect(await sender().drain()).toEqual({ delivered: 1, retried: 0, failed: 0, superseded: 0 });
    const [request] = target.received();
    expect(verifiedBoth(request!, secret)).toEqual({
      type: "note.created",
      timestamp: new Date(time.now).toISOString(),
      data: { id: 7, title: "Hé" },
    });
    expect(request!.headers["webhook-id"]).toBe(messageId);
    expect(request!.headers["webhook-timestamp"]).toBe(String(Math.floor(time.now / 1000)));
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(await webhooks.listAttempts(1, endpoint.id)).toEqual([
      {
        id: expect.any(Number),
        messageId,
        endpointId: endpoint.id,
        eventType: "note.created",
        attempt: 1,
        status: "succeeded",
        responseStatus: 200,
        durationMs: expect.any(Number),
        response: "ok",
        createdAt: time.now,
      },
    ]);
  });

  it("retries a receiver failing twice on the schedule, then delivers the same message once", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt, time, outbox } = webhooksOn(database);
    const target = receiverPath([503, 500, 200]);
    const { endpoint, secret } = await endpointAt(1, target.url);
    const { messageId } = await webhooks.send(database, 1, "note.updated", { id: 1 });
    const runner = sender();
    expect(await runner.drain()).toMatchObject({ retried: 1 });
    expect(await runner.drain()).toMatchObject({ retried: 0, delivered: 0 }); // not due yet
    time.now += 1000;
    expect(await runner.drain()).toMatchObject({ retried: 1 });
    time.now += 1000;
    expect(await runner.drain()).toMatchObject({ delivered: 1 });
    const received = target.received();
    expect(received).toHaveLength(3);
    for (const request of received) {
      expect(request.headers["webhook-id"]).toBe(messageId);
      verifiedBoth(request, secret);
    }
    expect(received[1]!.body).toBe(received[0]!.body);
    const log = (await webhooks.listAttempts(1, endpoint.id)) ?? [];
    expect(
      log.map((attempt) => [
        attempt.attempt,
        attempt.status,
        attempt.responseStatus,
        attempt.response,
      ]),
    ).toEqual([
      [3, "succeeded", 200, "ok"],
      [2, "failed", 500, "failing with 500"],
      [1, "failed", 503, "failing with 503"],
    ]);
    const [item] = await outbox.list(WEBHOOK_QUEUE, { limit: 1 });
    expect(item?.status).toBe("done");
  });

  it("fails the delivery once the schedule is spent, with every attempt logged", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt, time, outbox } = webhooksOn(database);
    const target = receiverPath([500]);
    const { endpoint } = await endpointAt(1, target.url);
    await webhooks.send(database, 1, "note.created", {});
    const runner = sender({ schedule: { delaysMs: [1000] } });
    await runner.drain();
    time.now += 1000;
    expect(await runner.drain()).toMatchObject({ failed: 1 });
    expect(await webhooks.listAttempts(1, endpoint.id)).toHaveLength(2);
    expect((await outbox.list(WEBHOOK_QUEUE, { limit: 1 }))[0]).toMatchObject({
      status: "failed",
      lastError: "the endpoint answered 500",
    });
  });

  it("logs a refused address, a timeout and a redirect as failed attempts, and sends nothing refused", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt } = webhooksOn(database);
    const refused = receiverPath();
    const silent = `/silent-${++paths}`;
    receiver.on(silent, () => {});
    const moved = `/moved-${++paths}`;
    receiver.on(moved, (_request, response) =>
      response.writeHead(301, { location: refused.url }).end(),
    );
    const a = await endpointAt(1, refused.url, ["a"]);
    const b = await endpointAt(1, receiver.url(silent), ["b"]);
    const c = await endpointAt(1, receiver.url(moved), ["c"]);
    for (const type of ["a", "b", "c"]) await webhooks.send(database, 1, type, {});
    // The delivery's guard no longer allows 127.0.0.1 (as after DNS answers changed).
    const strict = nodeGuardedFetch({ timeoutMs: 150 });
    const loose = nodeGuardedFetch({ allowHosts: ["127.0.0.1"], timeoutMs: 150 });
    const fetch: typeof strict = (request) =>
      request.url === refused.url ? strict(request) : loose(request);
    expect(await sender({ fetch }).drain()).toMatchObject({ retried: 3 });
    expect(refused.received()).toEqual([]);
    const [onlyA] = (await webhooks.listAttempts(1, a.endpoint.id)) ?? [];
    expect(onlyA).toMatchObject({
      status: "failed",
      responseStatus: null,
      response: expect.stringContaining("127.0.0.1"),
    });
    const [onlyB] = (await webhooks.listAttempts(1, b.endpoint.id)) ?? [];
    expect(onlyB).toMatchObject({
      status: "failed",
      responseStatus: null,
      response: "no answer within 150 ms",
    });
    const [onlyC] = (await webhooks.listAttempts(1, c.endpoint.id)) ?? [];
    expect(onlyC).toMatchObject({ status: "failed", responseStatus: 301 });
  });

  it("refuses to deliver to an IPv4-compatible loopback address written straight into the store", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, store, time } = webhooksOn(database);
    const target = receiverPath();
    // Registration refuses this URL; a row written some other way (an old version, a migration,
    // a hand edit) must still meet the guard at delivery.
    const id = "ep_compatibleloopback00000";
    await store.insertEndpoint({
      id,
      ownerId: 1,
      url: `http://[::7f00:1]:${receiver.port}${target.path}`,
      eventTypes: [],
      description: "",
      sealedSecret: await sealEndpointSecret(secretKeys, id, newEndpointSecret()),
      previousSealedSecret: null,
      previousSecretUntil: null,
      disabledAt: null,
      failingSince: null,
      headers: {},
      rateLimit: null,
      createdAt: time.now,
      updatedAt: time.now,
    });
    await webhooks.send(database, 1, "note.created", { id: 1 });
    expect(await sender().drain()).toMatchObject({ delivered: 0, retried: 1 });
    expect(target.received()).toEqual([]);
    expect(await webhooks.listAttempts(1, id)).toEqual([
      expect.objectContaining({
        status: "failed",
        responseStatus: null,
        response: "::7f00:1 is a loopback address",
      }),
    ]);
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt, time } = webhooksOn(database);
    const target = receiverPath();
    const { endpoint, secret: oldSecret } = await endpointAt(1, target.url);
    const rotated = await webhooks.rotateSecret(1, endpoint.id);
    const newSecret = rotated!.secret;
    await webhooks.send(database, 1, "note.created", { n: 1 });
    await sender().drain();
    const [during] = target.received();
    expect(headersOf(during!)["webhook-signature"]?.split(" ")).toHaveLength(2);
    verifiedBoth(during!, oldSecret);
    verifiedBoth(during!, newSecret);
    time.now += DAY; // the previous secret's last moment has passed
    await webhooks.send(database, 1, "note.created", { n: 2 });
    await sender().drain();
    const after = target.received()[1]!;
    const expected = signStandardWebhook({
      id: headersOf(after)["webhook-id"]!,
      body: after.body,
      secret: newSecret,
      timestamp: Number(headersOf(after)["webhook-timestamp"]),
    });
    expect(headersOf(after)["webhook-signature"]).toBe(expected["webhook-signature"]);
  });

  it("on the real clock: a rotated endpoint's delivery verifies with either secret", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt } = webhooksOn(database);
    const target = receiverPath();
    const { endpoint, secret: oldSecret } = await endpointAt(1, target.url);
    const rotated = await webhooks.rotateSecret(1, endpoint.id);
    await webhooks.send(database, 1, "note.created", {});
    await sender({ clock: systemClock }).drain();
    const [request] = target.received();
    verifiedBoth(request!, oldSecret);
    verifiedBoth(request!, rotated!.secret);
  });

  it("replays one message, and every failed message since a time, with the same webhook-id", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt, time } = webhooksOn(database);
    const good = receiverPath();
    const bad = receiverPath([500, 500, 200]);
    const g = await endpointAt(1, good.url);
    const b = await endpointAt(1, bad.url);
    const { messageId } = await webhooks.send(database, 1, "note.created", { id: 1 });
    const runner = sender({ schedule: { delaysMs: [] } });
    await runner.drain();
    expect(await webhooks.replayMessage(1, messageId!)).toEqual({ queued: 2, alreadyPending: 0 });
    await runner.drain();
    expect(good.received().map((request) => request.headers["webhook-id"])).toEqual([
      messageId,
      messageId,
    ]);
    expect((await webhooks.listAttempts(1, g.endpoint.id))?.map((a) => a.attempt)).toEqual([1, 1]);
    // The bad endpoint failed twice (first send and replay); a replay of failures recovers it.
    time.now += 1000;
    expect(await webhooks.replayFailed(1, time.now + 1)).toBe(0);
    expect(await webhooks.replayFailed(1, 0)).toBe(1);
    await runner.drain();
    expect(bad.received()).toHaveLength(3);
    expect((await webhooks.listAttempts(1, b.endpoint.id))?.[0]?.status).toBe("succeeded");
    expect(await webhooks.replayFailed(1, 0)).toBe(0);
  });

  it("collapses replays of a message into the delivery still pending, however many come at once", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt, outbox } = webhooksOn(database);
    const target = receiverPath();
    await endpointAt(1, target.url);
    const { messageId } = await webhooks.send(database, 1, "note.created", { id: 1 });
    const deliveries = async () =>
      (await outbox.list(WEBHOOK_QUEUE, { limit: 100 })).filter(
        (item) => (item.payload as { message_id: string }).message_id === messageId,
      ).length;
    // The first delivery has not been made yet: a replay adds nothing.
    expect(await webhooks.replayMessage(1, messageId!)).toEqual({ queued: 0, alreadyPending: 1 });
    const runner = sender();
    await runner.drain();
    // Ten replays at once, after it: one new delivery between them.
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => webhooks.replayMessage(1, messageId!)),
    );
    expect(outcomes.reduce((sum, outcome) => sum + outcome!.queued, 0)).toBe(1);
    expect(outcomes.reduce((sum, outcome) => sum + outcome!.alreadyPending, 0)).toBe(9);
    expect(await deliveries()).toBe(2);
    expect(await webhooks.replayFailed(1, 0)).toBe(0);
    await runner.drain();
    expect(target.received()).toHaveLength(2);
    // Once that one is made, a replay is a new delivery again.
    expect(await webhooks.replayMessage(1, messageId!)).toEqual({ queued: 1, alreadyPending: 0 });
    await runner.drain();
    expect(target.received()).toHaveLength(3);
    expect(await deliveries()).toBe(3);
  });

  it("disables an endpoint whose every delivery failed for 5 days, tells once, and drops what waits", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt, time, disabled, outbox } = webhooksOn(database);
    const target = receiverPath([500]);
    const { endpoint } = await endpointAt(1, target.url);
    const runner = sender({ schedule: { delaysMs: [DAY] } });
    await webhooks.send(database, 1, "note.created", { n: 1 });
    await runner.drain();
    time.now += 4 * DAY;
    await webhooks.send(database, 1, "note.created", { n: 2 });
    await runner.drain();
    expect(disabled).toEqual([]);
    time.now += DAY; // five days since the first failure
    await webhooks.send(database, 1, "note.created", { n: 3 });
    // Two deliveries fail side by side: the one that disables is failed at once, the other
    // is due again later, and then dropped without a request.
    expect(await runner.drain()).toMatchObject({ failed: 1, retried: 1 });
    expect(disabled).toEqual([
      expect.objectContaining({ id: endpoint.id, enabled: false, disabledAt: time.now }),
    ]);
    expect(await webhooks.findEndpoint(1, endpoint.id)).toMatchObject({ enabled: false });
    const sentBefore = target.received().length;
    await webhooks.send(database, 1, "note.created", { n: 4 }); // no endpoint takes it now
    time.now += DAY;
    expect(await runner.drain()).toMatchObject({ delivered: 0, failed: 1 });
    expect(target.received()).toHaveLength(sentBefore);
    expect(disabled).toHaveLength(1);
    const items = await outbox.list(WEBHOOK_QUEUE, { limit: 10 });
    expect(items.every((item) => item.status === "failed")).toBe(true);
  });

  it("a success within the 5 days keeps the endpoint enabled", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt, time, disabled } = webhooksOn(database);
    const target = receiverPath([500, 200, 500]);
    const { endpoint } = await endpointAt(1, target.url);
    const runner = sender({ schedule: { delaysMs: [] } });
    for (const day of [0, 3, 6]) {
      time.now += day === 0 ? 0 : 3 * DAY;
      await webhooks.send(database, 1, "note.created", { day });
      await runner.drain();
    }
    expect(disabled).toEqual([]);
    expect(await webhooks.findEndpoint(1, endpoint.id)).toMatchObject({ enabled: true });
  });
});
