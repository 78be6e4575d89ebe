import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { sqliteFile } from "./support/databases.js";
import { testReceiver } from "./support/receiver.js";
import { webhooksOn } from "./support/senders.js";

const receiver = await testReceiver();

describe("webhookSender and one owner's hanging receivers", () => {
  it("delivers another owner's message while the first owner's endpoints hang, holding only their share", async () => {
    const { database } = await sqliteFile();
    const { webhooks, sender, endpointAt } = webhooksOn(database);
    // Owner 1: four endpoints that take the request and never answer.
    const hanging = new Set<ServerResponse>();
    let twoHang!: () => void;
    const twoHanging = new Promise<void>((resolve) => {
      twoHang = resolve;
    });
    receiver.on("/hangs", (_request, response) => {
      hanging.add(response);
      if (hanging.size === 2) twoHang();
    });
    for (let n = 0; n < 4; n++) await endpointAt(1, receiver.url("/hangs"));
    // Owner 2: one endpoint that answers at once.
    let answered!: () => void;
    const owner2Answered = new Promise<void>((resolve) => {
      answered = resolve;
    });
    receiver.on("/answers", (_request, response) => {
      response.writeHead(204).end(answered);
    });
    const { endpoint } = await endpointAt(2, receiver.url("/answers"));
    await webhooks.send(database, 1, "note.created", { n: 1 });
    await webhooks.send(database, 2, "note.created", { n: 2 });

    // Four slots, as many as owner 1 has hanging deliveries: with a batch, or without shares,
    // they would all hang, and owner 2's delivery would wait for the request timeout.
    const draining = sender({ concurrency: 4, leaseMs: 10_000 }).drain();
    await Promise.all([owner2Answered, twoHanging]);
    // Owner 2 was answered while two of owner 1's requests hang; the other two wait their turn.
    expect(hanging.size).toBe(2);
    expect(receiver.receivedAt("/hangs")).toHaveLength(2);
    receiver.on("/hangs", (_request, response) => response.writeHead(503).end());
    for (const response of hanging) response.writeHead(503).end();
    expect(await draining).toEqual({ delivered: 1, retried: 4, failed: 0, superseded: 0 });
    const [attempt] = (await webhooks.listAttempts(2, endpoint.id)) ?? [];
    expect(attempt).toMatchObject({ status: "succeeded", responseStatus: 204 });
  });
});
