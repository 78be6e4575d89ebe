// An endpoint whose every delivery failed for 5 days is disabled, and its owner is mailed once:
// a receiver on 127.0.0.1 that always answers 500, a retry schedule of two immediate retries,
// and the app's clock moved past the 5 days. Events while it is disabled, and failures after it
// is enabled again, mail no one again.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerTokenFor, callJsonApi } from "./support/json-api.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 3, 1, 8, 0, 0);

let now = T0;
const mailer = new MemoryMailer();
let server: TestServer;
let receiver: Server;
let receiverUrl: string;
let requests = 0;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      requests++;
      response.writeHead(500).end("always down");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/down`;
  server = await startTestServer(
    { OUTBOUND_ALLOW_HOSTS: "127.0.0.1", OUTBOUND_RETRY_SCHEDULE: "0,0" },
    { mailer, clock: () => now },
  );
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("an endpoint failing for 5 days", () => {
  it("is disabled, and its owner gets exactly one mail naming its URL", async () => {
    const email = `failing.${newClientAddress()}@example.com`;
    const client = newClientAddress();
    let token = await bearerTokenFor(server.url, email, { client });
    const created = await callJsonApi(server.url, "POST", "/api/webhook_endpoints", token, {
      url: receiverUrl,
    });
    expect(created.status).toBe(201);
    const endpointPath = `/api/webhook_endpoints/${created.body.id}`;
    const note = async (title: string) =>
      expect((await callJsonApi(server.url, "POST", "/api/notes", token, { title })).status).toBe(
        201,
      );
    const mailsToOwner = async () => {
      await server.deliverMail();
      return mailer.sent.filter((mail) => mail.to === email);
    };
    const mailsBefore = (await mailsToOwner()).length;

    // Day 0: the first delivery fails three times (at once, then twice more): the streak begins.
    await note("first");
    await server.deliverWebhooks();
    expect(requests).toBe(3);
    expect((await callJsonApi(server.url, "GET", endpointPath, token)).body.enabled).toBe(true);

    // Just short of 5 days, failures leave it enabled.
    now = T0 + 5 * DAY - 60_000;
    token = await bearerTokenFor(server.url, email, { client, existing: true });
    await note("almost");
    await server.deliverWebhooks();
    expect((await callJsonApi(server.url, "GET", endpointPath, token)).body.enabled).toBe(true);
    expect(await mailsToOwner()).toHaveLength(mailsBefore);

    // Past 5 days, the next failure disables it and tells its owner.
    now = T0 + 5 * DAY + 60_000;
    await note("second");
    await server.deliverWebhooks();
    const shown = await callJsonApi(server.url, "GET", endpointPath, token);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ enabled: false, disabled_at: expect.any(String) });
    const mails = (await mailsToOwner()).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(receiverUrl);

    // While disabled, its events are not tried, and no one is mailed again.
    const requestsWhenDisabled = requests;
    now = T0 + 6 * DAY;
    token = await bearerTokenFor(server.url, email, { client, existing: true });
    await note("third");
    await server.deliverWebhooks();
    expect(requests).toBe(requestsWhenDisabled);

    // Enabled again, a second round of failures starts a new count: no disable, no mail.
    const enabled = await callJsonApi(server.url, "PATCH", endpointPath, token, { enabled: true });
    expect(enabled.body.enabled).toBe(true);
    await note("fourth");
    await server.deliverWebhooks();
    expect(requests).toBe(requestsWhenDisabled + 3);
    expect((await callJsonApi(server.url, "GET", endpointPath, token)).body.enabled).toBe(true);
    expect((await mailsToOwner()).slice(mailsBefore)).toHaveLength(1);
  });
});
