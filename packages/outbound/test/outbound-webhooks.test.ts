import {
  MAXIMUM_ENDPOINTS_PER_OWNER,
  OutboundWebhooks,
  openEndpointSecret,
  outboundSecretKeys,
  URL_NOT_ALLOWED,
  URL_NOT_PLAIN,
  WEBHOOK_QUEUE,
} from "@tessera/outbound";
import { SqlOutboundStore } from "@tessera/outbound/sql";
import { SqlOutbox } from "@tessera/outbox/sql";
import { describe, expect, it } from "vitest";
import { sqliteFile } from "./support/databases.js";

const keys = outboundSecretKeys({ current: "a-test-secret-key-base-of-at-least-32-characters" });
const dns: Record<string, string[]> = {
  "inside.example": ["10.0.0.7"],
  "hooks.example": ["93.184.216.34"],
};

async function setUp(policy = {}, maximumEndpointsPerOwner?: number) {
  const { database } = await sqliteFile();
  const outbox = new SqlOutbox(database);
  const store = new SqlOutboundStore(database);
  const webhooks = new OutboundWebhooks({
    store,
    outbox,
    writer: database,
    secretKeys: keys,
    policy,
    resolveHost: async (host) => dns[host] ?? [],
    ...(maximumEndpointsPerOwner === undefined ? {} : { maximumEndpointsPerOwner }),
  });
  const created = async (ownerId: number, input: Record<string, unknown>) => {
    const result = await webhooks.createEndpoint(ownerId, input);
    if (!result.ok) throw new Error(JSON.stringify(result));
    return result.value;
  };
  const items = async () =>
    (await outbox.list(WEBHOOK_QUEUE, { limit: 100 })).map((item) => item.payload);
  return { database, outbox, store, webhooks, created, items };
}

describe("OutboundWebhooks endpoints", () => {
  it("refuses at registration every URL the guard refuses, with `is not allowed` on url", async () => {
    const { webhooks } = await setUp();
    for (const url of [
      "http://2130706433/",
      "http://0177.0.0.1/",
      "http://0x7f.0.0.1/",
      "http://[::ffff:10.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://0.0.0.0/",
      "http://169.254.169.254/",
      "http://100.64.0.1/",
      "http://[fc00::1]/",
      "http://[fe80::1]/",
      "http://localhost/",
      "https://inside.example/hook",
      "http://127.0.0.1:8080/",
      "ftp://hooks.example/",
    ]) {
      expect(await webhooks.createEndpoint(1, { url })).toEqual({
        ok: false,
        fields: { url: [URL_NOT_ALLOWED] },
      });
    }
    expect(await webhooks.listEndpoints(1)).toEqual([]);
  });

  it("refuses a URL not written plainly with its own message, storing nothing", async () => {
    const { webhooks } = await setUp();
    for (const url of [
      "http://:@8.8.8.8/",
      "http:/8.8.8.8",
      "http:\\\\8.8.8.8",
      "http:///8.8.8.8",
    ]) {
      expect(await webhooks.createEndpoint(1, { url })).toEqual({
        ok: false,
        fields: { url: [URL_NOT_PLAIN] },
      });
    }
    expect(await webhooks.listEndpoints(1)).toEqual([]);
  });

  it("keeps an owner to 20 endpoints by default, or the maximum given, counting disabled ones", async () => {
    const byDefault = await setUp();
    for (let n = 0; n < MAXIMUM_ENDPOINTS_PER_OWNER; n++) {
      await byDefault.created(1, { url: `https://hooks.example/${n}` });
    }
    expect(await byDefault.webhooks.createEndpoint(1, { url: "https://hooks.example/21" })).toEqual(
      {
        ok: false,
        endpointLimit: 20,
      },
    );
    expect(await byDefault.webhooks.listEndpoints(1)).toHaveLength(20);

    const { webhooks, created } = await setUp({}, 2);
    const first = await created(1, { url: "https://hooks.example/a" });
    await webhooks.updateEndpoint(1, first.endpoint.id, { enabled: false });
    await created(1, { url: "https://hooks.example/b" });
    expect(await webhooks.createEndpoint(1, { url: "https://hooks.example/c" })).toEqual({
      ok: false,
      endpointLimit: 2,
    });
    expect(await webhooks.createEndpoint(2, { url: "https://hooks.example/c" })).toMatchObject({
      ok: true,
    });
    // A removed endpoint makes room again.
    await webhooks.deleteEndpoint(1, first.endpoint.id);
    expect(await webhooks.createEndpoint(1, { url: "https://hooks.example/c" })).toMatchObject({
      ok: true,
    });
  });

  it("takes a host the allow list names, and says what else is wrong", async () => {
    const { webhooks } = await setUp({ allowHosts: ["127.0.0.1"] });
    expect(await webhooks.createEndpoint(1, { url: "http://127.0.0.1:8080/in" })).toMatchObject({
      ok: true,
    });
    expect(await webhooks.createEndpoint(1, {})).toEqual({
      ok: false,
      fields: { url: ["can't be blank"] },
    });
    expect(
      await webhooks.createEndpoint(1, {
        url: "https://hooks.example/",
        events: ["ok", "no spaces"],
        description: 7,
      }),
    ).toEqual({ ok: false, fields: { events: ["is invalid"], description: ["is invalid"] } });
  });

  it("shows a new whsec_ secret once, keeps it encrypted, and never lists it", async () => {
    const { webhooks, created, database } = await setUp();
    const { endpoint, secret } = await created(1, {
      url: "https://hooks.example/in",
      events: ["note.created", "note.created"],
      description: "CRM",
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^ep_[A-Za-z0-9_-]{24}$/),
      url: "https://hooks.example/in",
      eventTypes: ["note.created"],
      description: "CRM",
      enabled: true,
    });
    const row = await database.get<{ secret: string }>("SELECT secret FROM webhook_endpoints");
    expect(row?.secret).not.toContain(secret.slice(6));
    expect(await openEndpointSecret(keys, endpoint.id, row!.secret)).toBe(secret);
    expect(JSON.stringify(await webhooks.listEndpoints(1))).not.toContain(secret.slice(6));
    expect(await webhooks.listEndpoints(1)).toEqual([endpoint]);
  });

  it("changes, disables, rotates and deletes only the owner's endpoint", async () => {
    const { webhooks, created, store } = await setUp();
    const { endpoint } = await created(1, { url: "https://hooks.example/in" });
    expect(await webhooks.updateEndpoint(2, endpoint.id, { enabled: false })).toBeUndefined();
    expect(await webhooks.rotateSecret(2, endpoint.id)).toBeUndefined();
    expect(await webhooks.deleteEndpoint(2, endpoint.id)).toBe(false);
    expect(await webhooks.findEndpoint(2, endpoint.id)).toBeUndefined();
    expect(await webhooks.updateEndpoint(1, endpoint.id, { url: "http://10.1.1.1/" })).toEqual({
      ok: false,
      fields: { url: [URL_NOT_ALLOWED] },
    });
    const disabled = await webhooks.updateEndpoint(1, endpoint.id, {
      enabled: false,
      events: ["a.b"],
    });
    expect(disabled).toMatchObject({ ok: true, value: { enabled: false, eventTypes: ["a.b"] } });
    const rotated = await webhooks.rotateSecret(1, endpoint.id);
    const stored = await store.findEndpointById(endpoint.id);
    expect(await openEndpointSecret(keys, endpoint.id, stored!.sealedSecret)).toBe(rotated?.secret);
    expect(stored?.previousSealedSecret).not.toBeNull();
    expect(await webhooks.deleteEndpoint(1, endpoint.id)).toBe(true);
    expect(await webhooks.listEndpoints(1)).toEqual([]);
  });
});

describe("OutboundWebhooks.send", () => {
  it("stores the message and one delivery per subscribed enabled endpoint, in the caller's transaction", async () => {
    const { webhooks, created, database, items, store } = await setUp();
    const all = await created(1, { url: "https://hooks.example/all" });
    const notes = await created(1, {
      url: "https://hooks.example/notes",
      events: ["note.created"],
    });
    await created(1, { url: "https://hooks.example/users", events: ["user.created"] });
    await created(1, { url: "https://hooks.example/off", enabled: false });
    await created(2, { url: "https://hooks.example/theirs" });
    await expect(
      database.transaction(async (transaction) => {
        await webhooks.send(transaction, 1, "note.created", { id: 1 });
        throw new Error("the note's insert failed");
      }),
    ).rejects.toThrow("the note's insert failed");
    expect(await items()).toEqual([]);
    expect(await database.get("SELECT id FROM webhook_messages")).toBeUndefined();
    const sent = await database.transaction((transaction) =>
      webhooks.send(transaction, 1, "note.created", { id: 1, title: "Hi" }),
    );
    expect(sent).toEqual({
      messageId: expect.stringMatching(/^msg_[A-Za-z0-9_-]{24}$/),
      endpoints: 2,
    });
    expect(await items()).toEqual(
      expect.arrayContaining([
        { message_id: sent.messageId, endpoint_id: all.endpoint.id },
        { message_id: sent.messageId, endpoint_id: notes.endpoint.id },
      ]),
    );
    expect(await items()).toHaveLength(2);
    expect(await store.findMessage(1, sent.messageId!)).toMatchObject({
      eventType: "note.created",
      payload: '{"id":1,"title":"Hi"}',
    });
  });

  it("stores nothing for an event no endpoint takes, however large its payload", async () => {
    const { database, webhooks, created } = await setUp();
    await created(1, { url: "https://hooks.example/users", events: ["user.created"] });
    const sent = await webhooks.send(database, 1, "note.created", { body: "x".repeat(300_000) });
    expect(sent).toEqual({ messageId: undefined, endpoints: 0 });
    expect(await database.get("SELECT id FROM webhook_messages")).toBeUndefined();
    expect(await database.get("SELECT id FROM outbox_items")).toBeUndefined();
    await expect(
      webhooks.send(database, 1, "user.created", { body: "x".repeat(300_000) }),
    ).rejects.toThrow(RangeError);
  });

  it("calls a payload's maker only when an endpoint takes the event", async () => {
    const { database, webhooks, created, store } = await setUp();
    await created(1, { url: "https://hooks.example/notes", events: ["note.created"] });
    const made: string[] = [];
    const maker = (type: string) => () => {
      made.push(type);
      return { id: 7 };
    };
    const nobody = await webhooks.send(database, 1, "note.deleted", maker("note.deleted"));
    expect(nobody).toEqual({ messageId: undefined, endpoints: 0 });
    const sent = await webhooks.send(database, 1, "note.created", maker("note.created"));
    expect(made).toEqual(["note.created"]);
    expect(await store.findMessage(1, sent.messageId!)).toMatchObject({ payload: '{"id":7}' });
  });

  it("refuses a type that is not an event type name and, for an endpoint, a payload with no JSON form", async () => {
    const { webhooks, database, created } = await setUp();
    await created(1, { url: "https://hooks.example/all" });
    await expect(webhooks.send(database, 1, "note created", {})).rejects.toThrow(RangeError);
    await expect(webhooks.send(database, 1, "note.created", undefined)).rejects.toThrow(RangeError);
    await expect(webhooks.send(database, 1, "note.created", "x".repeat(300_000))).rejects.toThrow(
      RangeError,
    );
  });

  it("replays one of the owner's messages to every subscribed endpoint, as new deliveries", async () => {
    const { webhooks, created, database, items, outbox } = await setUp();
    const a = await created(1, { url: "https://hooks.example/a" });
    const b = await created(1, { url: "https://hooks.example/b" });
    const { messageId } = await webhooks.send(database, 1, "note.deleted", { id: 3 });
    // Ends what waits without an attempt, as a sender does for a disabled endpoint.
    const endPending = async () => {
      const claimed = await outbox.claim(WEBHOOK_QUEUE, { limit: 10, leaseMs: 1000, owner: "t" });
      for (const item of claimed) await outbox.complete(item);
      return claimed.length;
    };
    expect(await webhooks.replayMessage(2, messageId!)).toBeUndefined();
    expect(await webhooks.replayMessage(1, messageId!)).toEqual({ queued: 0, alreadyPending: 2 });
    expect(await endPending()).toBe(2);
    expect(await webhooks.replayMessage(1, messageId!)).toEqual({ queued: 2, alreadyPending: 0 });
    expect(await webhooks.replayMessage(1, messageId!)).toEqual({ queued: 0, alreadyPending: 2 });
    // Those replays end without an attempt too: the next one is not taken for a duplicate.
    expect(await endPending()).toBe(2);
    expect(await webhooks.replayMessage(1, messageId!)).toEqual({ queued: 2, alreadyPending: 0 });
    const delivered = await items();
    expect(delivered).toHaveLength(6);
    for (const endpoint of [a, b]) {
      expect(
        delivered.filter(
          (item) => (item as { endpoint_id: string }).endpoint_id === endpoint.endpoint.id,
        ),
      ).toHaveLength(3);
    }
  });
});
