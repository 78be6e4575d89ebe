import { INVALID } from "@tessera/core";
import {
  HEADER_NAME_DUPLICATE,
  HEADER_NAME_INVALID,
  HEADER_NAME_RESERVED,
  HEADER_VALUE_INVALID,
  openEndpointHeaders,
  TOO_MANY_HEADERS,
} from "@tessera/outbound";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { sqliteFile } from "./support/databases.js";
import { type ReceivedRequest, testReceiver } from "./support/receiver.js";
import { secretKeys, webhooksOn } from "./support/senders.js";

const receiver = await testReceiver();
let paths = 0;
/** A new path on the shared receiver, answering `statuses` in turn (then the last one). */
function receiverPath(statuses: number[] = [200]) {
  const path = `/headers-${++paths}`;
  let calls = 0;
  receiver.on(path, (_request, response) => {
    response.writeHead(statuses[Math.min(calls++, statuses.length - 1)]!).end();
  });
  return { url: receiver.url(path), received: () => receiver.receivedAt(path) };
}

const TOKEN = "tok_9f8e7d6c5b4a-do-not-leak";
const HEADERS = { "X-Api-Key": TOKEN, Tenant: "acme corp", "x-empty": "" };

async function withHeaders(headers: unknown = HEADERS) {
  const { database } = await sqliteFile();
  const wired = webhooksOn(database);
  const target = receiverPath([500, 200]);
  const created = await wired.webhooks.createEndpoint(1, { url: target.url, headers });
  if (!created.ok) throw new Error(JSON.stringify(created));
  return { database, ...wired, target, ...created.value };
}

const verified = (request: ReceivedRequest, secret: string) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>);

describe("custom endpoint headers", () => {
  it("arrive with every delivery (first try, retry, replay), the signature verifying", async () => {
    const { database, webhooks, sender, time, target, endpoint, secret } = await withHeaders();
    const { messageId } = await webhooks.send(database, 1, "note.created", { id: 1 });
    const runner = sender();
    expect(await runner.drain()).toMatchObject({ retried: 1 }); // answered 500
    time.now += 1000;
    expect(await runner.drain()).toMatchObject({ delivered: 1 });
    expect(await webhooks.replayMessage(1, messageId!)).toEqual({ queued: 1, alreadyPending: 0 });
    expect(await runner.drain()).toMatchObject({ delivered: 1 });
    const received = target.received();
    expect(received).toHaveLength(3);
    for (const request of received) {
      expect(request.headers["x-api-key"]).toBe(TOKEN);
      expect(request.headers.tenant).toBe("acme corp");
      expect(request.headers["x-empty"]).toBe("");
      expect(request.headers["webhook-id"]).toBe(messageId);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(verified(request, secret)).toMatchObject({ data: { id: 1 } });
    }
    expect(endpoint.headerNames).toEqual(["Tenant", "X-Api-Key", "x-empty"]);
  });

  it("are shown by name only, and stored sealed for their endpoint", async () => {
    const { database, webhooks, endpoint } = await withHeaders();
    const views = [
      endpoint,
      await webhooks.findEndpoint(1, endpoint.id),
      ...(await webhooks.listEndpoints(1)),
    ];
    for (const view of views) {
      expect(view?.headerNames).toEqual(["Tenant", "X-Api-Key", "x-empty"]);
      expect(JSON.stringify(view)).not.toContain(TOKEN);
      expect(JSON.stringify(view)).not.toContain("acme");
    }
    const row = await database.get<{ headers: string }>(
      "SELECT headers FROM webhook_endpoints WHERE id = ?",
      [endpoint.id],
    );
    expect(row!.headers).not.toContain(TOKEN);
    expect(row!.headers).not.toContain("acme");
    const sealed = JSON.parse(row!.headers) as Record<string, string>;
    expect(Object.keys(sealed).sort()).toEqual(["Tenant", "X-Api-Key", "x-empty"]);
    expect(await openEndpointHeaders(secretKeys, endpoint.id, sealed)).toEqual(HEADERS);
    // Copied onto another endpoint, or under another name, a value does not open.
    await expect(openEndpointHeaders(secretKeys, "ep_other", sealed)).rejects.toThrow(
      /header .* does not open/,
    );
    const moved = await openEndpointHeaders(secretKeys, endpoint.id, {
      Tenant: sealed["X-Api-Key"]!,
    }).catch((error: Error) => error.message);
    expect(moved).toBe(
      `the header Tenant of endpoint ${endpoint.id} does not open (not-authentic)`,
    );
    expect(moved).not.toContain(TOKEN);
  });

  it("are replaced by a change, kept by a change of something else, and cleared by null or {}", async () => {
    const { database, webhooks, sender, endpoint, target } = await withHeaders();
    const update = async (input: Record<string, unknown>) => {
      const updated = await webhooks.updateEndpoint(1, endpoint.id, input);
      if (!updated?.ok) throw new Error(JSON.stringify(updated));
      return updated.value;
    };
    expect((await update({ description: "CRM" })).headerNames).toEqual([
      "Tenant",
      "X-Api-Key",
      "x-empty",
    ]);
    expect((await update({ headers: { "X-Other": "2" } })).headerNames).toEqual(["X-Other"]);
    const runner = sender({ schedule: { delaysMs: [] } });
    await webhooks.send(database, 1, "note.created", {});
    await runner.drain();
    expect((await update({ headers: null })).headerNames).toEqual([]);
    await webhooks.send(database, 1, "note.created", {});
    await runner.drain();
    const [replaced, cleared] = target.received();
    expect(replaced!.headers["x-other"]).toBe("2");
    expect(replaced!.headers["x-api-key"]).toBeUndefined();
    expect(Object.keys(cleared!.headers).filter((name) => name.startsWith("x-"))).toEqual([]);
    await update({ headers: { "X-Again": "3" } });
    expect((await update({ headers: {} })).headerNames).toEqual([]);
    const row = await database.get<{ headers: string }>(
      "SELECT headers FROM webhook_endpoints WHERE id = ?",
      [endpoint.id],
    );
    expect(row!.headers).toBe("{}");
  });

  it("refuse reserved names, whatever their case, with their field message", async () => {
    const { webhooks } = await withHeaders();
    for (const name of [
      "webhook-id",
      "Webhook-Signature",
      "svix-signature",
      "Content-Type",
      "content-length",
      "Host",
      "Authorization",
      "connection",
      "Keep-Alive",
      "transfer-encoding",
      "TE",
      "trailer",
      "upgrade",
      "proxy-authorization",
      "Cookie",
      "user-agent",
      "X-Forwarded-For",
      "forwarded",
      "x-real-ip",
      "x-http-method-override",
      "sec-fetch-mode",
      "expect",
    ]) {
      expect(
        await webhooks.createEndpoint(1, {
          url: "http://127.0.0.1/in",
          headers: { [name]: "x" },
        }),
      ).toEqual({ ok: false, fields: { headers: [HEADER_NAME_RESERVED] } });
    }
  });

  it("refuse names and values that are not HTTP's, too many, and a name twice", async () => {
    const { webhooks, endpoint } = await withHeaders();
    const refusal = async (headers: unknown) => {
      const created = await webhooks.createEndpoint(1, { url: "http://127.0.0.1/in", headers });
      const updated = await webhooks.updateEndpoint(1, endpoint.id, { headers });
      expect(updated).toEqual(created);
      return created.ok ? undefined : "fields" in created ? created.fields : created;
    };
    for (const name of ["", "two words", "a:b", "é", "x".repeat(65), "a\r\nb", "(x)"]) {
      expect(await refusal({ [name]: "x" })).toEqual({ headers: [HEADER_NAME_INVALID] });
    }
    for (const value of [
      "a\r\nInjected: 1",
      "line\nbreak",
      "nul\u0000",
      "x".repeat(1025),
      " padded",
      "padded ",
      "euro €",
      "tab\there",
    ]) {
      expect(await refusal({ "X-Key": value })).toEqual({ headers: [HEADER_VALUE_INVALID] });
    }
    expect(await refusal({ "X-Key": 7 })).toEqual({ headers: [INVALID] });
    for (const notAnObject of ["X-Key: 1", [], 3, true]) {
      expect(await refusal(notAnObject)).toEqual({ headers: [INVALID] });
    }
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, "v"]));
    expect(await refusal(eleven)).toEqual({ headers: [TOO_MANY_HEADERS] });
    expect(await refusal({ "X-Key": "1", "x-key": "2" })).toEqual({
      headers: [HEADER_NAME_DUPLICATE],
    });
    expect(await refusal({ host: "a", "bad name": "b", "X-Ok": "\n" })).toEqual({
      headers: [HEADER_NAME_RESERVED, HEADER_NAME_INVALID, HEADER_VALUE_INVALID],
    });
    // Nothing refused was stored.
    expect((await webhooks.findEndpoint(1, endpoint.id))?.headerNames).toEqual([
      "Tenant",
      "X-Api-Key",
      "x-empty",
    ]);
  });

  it("take ten headers, a 64-character name and a 1,024-character value", async () => {
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-H${i}`, `v${i}`]));
    const { endpoint } = await withHeaders({
      ...Object.fromEntries(Object.entries(ten).slice(0, 8)),
      ["N".repeat(64)]: "v",
      "X-Long": "~".repeat(1024),
    });
    expect(endpoint.headerNames).toHaveLength(10);
  });
});
