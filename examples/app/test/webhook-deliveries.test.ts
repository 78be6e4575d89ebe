// Notes' events delivered to a receiver on 127.0.0.1 (allowed through OUTBOUND_ALLOW_HOSTS),
// every delivery verified with the standardwebhooks library: the three note events with the
// note as the JSON API shows it, the event filter, retries on a tiny schedule with the attempt
// log, replay and rotation; the event catalog's schemas hold every delivery, the test event's
// too, and a model that declares no events sends none.
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { MAXIMUM_PAYLOAD_BYTES } from "@tessera/outbound";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { MAXIMUM_RECORD_EVENT_BYTES } from "@tessera/records";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let server: TestServer;
let receiver: Server;
let receiverUrl: string;
let received: Received[] = [];
/** How many requests per path the receiver still fails with a 500 before answering 200. */
const failures = new Map<string, number>();
/** Paths whose requests get no answer until the test lets them go: their deliveries stay held. */
const holding = new Set<string>();
const held: ServerResponse[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() });
      const left = failures.get(path) ?? 0;
      if (holding.has(path)) {
        held.push(response);
      } else if (left > 0) {
        failures.set(path, left - 1);
        response.writeHead(500).end("down for now");
      } else {
        response.writeHead(200).end("ok");
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startTestServer({
    // Each user signs up from an address of their own (newClientAddress), so the sign-up and
    // sign-in limits per address never count one test's users against another's.
    TRUST_PROXY: "1",
    OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    OUTBOUND_RETRY_SCHEDULE: "0,0,0",
  });
});
afterAll(async () => {
  await server.stop();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  received = [];
});

async function api(method: string, path: string, token?: string, json?: unknown) {
  const headers: Record<string, string> = {};
  if (json !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: json === undefined ? null : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function newUser(name: string): Promise<string> {
  const client = newClientAddress();
  const credentials = { email: `${name}.${client}@example.com`, password: "correct horse battery" };
  const headers = { "content-type": "application/json", "x-forwarded-for": client };
  for (const path of ["/api/auth/signup", "/api/auth/token"]) {
    const answer = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(credentials),
    });
    if (path.endsWith("token")) return ((await answer.json()) as { token: string }).token;
  }
  throw new Error("unreachable");
}

async function endpoint(token: string, path: string, events?: string[]) {
  const created = await api("POST", "/api/webhook_endpoints", token, {
    url: `${receiverUrl}${path}`,
    ...(events ? { events } : {}),
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

/** The deliveries to `path`, each verified with `secret` (throws on a bad signature). */
function verified(path: string, secret: string) {
  return received
    .filter((delivery) => delivery.path === path)
    .map((delivery) => {
      const payload = new Webhook(secret).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      );
      return { id: delivery.headers["webhook-id"], payload: payload as Record<string, unknown> };
    });
}

describe("notes' events delivered to their owner's endpoints", () => {
  it("sends note.created, note.updated and note.deleted with the note as the API shows it", async () => {
    const token = await newUser("events");
    const all = await endpoint(token, "/all");
    const deletesOnly = await endpoint(token, "/deletes", ["note.deleted"]);
    const created = await api("POST", "/api/notes", token, { title: "First", tags: ["a"] });
    expect(created.status).toBe(201);
    const updated = await api("PATCH", `/api/notes/${created.body.id}`, token, { pinned: true });
    expect((await api("DELETE", `/api/notes/${created.body.id}`, token)).status).toBe(204);
    await server.deliverWebhooks();

    const events = verified("/all", all.secret).map(({ payload }) => payload);
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ["note.created", created.body],
      ["note.updated", updated.body],
      ["note.deleted", updated.body],
    ]);
    for (const event of events) expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const deletes = verified("/deletes", deletesOnly.secret);
    expect(deletes.map(({ payload }) => payload.type)).toEqual(["note.deleted"]);
  });

  it("sends a note too large for an event as its id, and still stores the note", async () => {
    const token = await newUser("large");
    const large = await endpoint(token, "/large");
    const created = await api("POST", "/api/notes", token, {
      title: "Big",
      body: "x".repeat(300_000),
    });
    expect(created.status).toBe(201);
    await server.deliverWebhooks();
    const events = verified("/large", large.secret).map(({ payload }) => payload);
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ["note.created", { id: created.body.id, truncated: true }],
    ]);
  });

  it("sends nothing for a refused write, nor to another user's endpoints", async () => {
    const token = await newUser("refused");
    const other = await newUser("other");
    await endpoint(other, "/other");
    await endpoint(token, "/refused");
    const before = await server.query<{ n: number }>("SELECT count(*) AS n FROM webhook_messages");
    expect((await api("POST", "/api/notes", token, { title: "" })).status).toBe(422);
    expect((await api("PATCH", "/api/notes/999999", token, { title: "x" })).status).toBe(404);
    expect((await api("DELETE", "/api/notes/999999", token)).status).toBe(404);
    const after = await server.query<{ n: number }>("SELECT count(*) AS n FROM webhook_messages");
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));
    expect((await api("POST", "/api/notes", token, { title: "mine" })).status).toBe(201);
    await server.deliverWebhooks();
    expect(received.map((delivery) => delivery.path)).toEqual(["/refused"]);
  });

  it("retries a failing receiver on the schedule and logs every attempt, newest first", async () => {
    const token = await newUser("retries");
    const flaky = await endpoint(token, "/flaky");
    failures.set("/flaky", 2);
    await api("POST", "/api/notes", token, { title: "Retried" });
    await server.deliverWebhooks();
    const deliveries = verified("/flaky", flaky.secret);
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries.map((delivery) => delivery.id)).size).toBe(1);
    const attempts = await api("GET", `/api/webhook_endpoints/${flaky.id}/attempts`, token);
    expect(attempts.status).toBe(200);
    expect(
      attempts.body.map((attempt: Record<string, unknown>) => [
        attempt.attempt,
        attempt.status,
        attempt.response_status,
        attempt.event_type,
        attempt.message_id,
      ]),
    ).toEqual([
      [3, "succeeded", 200, "note.created", deliveries[0]!.id],
      [2, "failed", 500, "note.created", deliveries[0]!.id],
      [1, "failed", 500, "note.created", deliveries[0]!.id],
    ]);
    expect(Object.keys(attempts.body[0]).sort()).toEqual([
      "attempt",
      "created_at",
      "duration_ms",
      "event_type",
      "message_id",
      "response_status",
      "status",
    ]);
  });

  it("gives up after the last wait, and replay sends the message again with its id", async () => {
    const token = await newUser("replay");
    const down = await endpoint(token, "/down");
    failures.set("/down", 4);
    await api("POST", "/api/notes", token, { title: "Lost, then replayed" });
    await server.deliverWebhooks();
    const tried = verified("/down", down.secret);
    expect(tried).toHaveLength(4); // the first attempt and the schedule's three
    received = [];
    const replayed = await api("POST", `/api/webhook_messages/${tried[0]!.id}/replay`, token);
    expect(replayed).toEqual({
      status: 202,
      body: { message_id: tried[0]!.id, endpoints: 1, already_pending: 0 },
    });
    await server.deliverWebhooks();
    const again = verified("/down", down.secret);
    expect(again.map((delivery) => delivery.id)).toEqual([tried[0]!.id]);
    expect(again[0]!.payload.type).toBe("note.created");
    const other = await newUser("not-owner");
    const refused = await api("POST", `/api/webhook_messages/${tried[0]!.id}/replay`, other);
    expect(refused.status).toBe(404);
  });

  it("collapses replays into the delivery still pending, and limits a user to 10 a minute", async () => {
    const token = await newUser("replays");
    const first = await endpoint(token, "/replays-a");
    const second = await endpoint(token, "/replays-b");
    await api("POST", "/api/notes", token, { title: "Replayed many times" });
    await server.deliverWebhooks();
    const [sent] = verified("/replays-a", first.secret);
    const items = async () => {
      const rows = await server.query<{ count: number }>(
        "SELECT COUNT(*) AS count FROM outbox_items WHERE queue = 'webhook' AND idempotency_key LIKE ?",
        `${sent!.id}.%`,
      );
      return Number(rows[0]!.count);
    };
    expect(await items()).toBe(2);
    received = [];
    // Each replay's delivery is held by the app's sender until the receiver answers.
    holding.add("/replays-a");
    holding.add("/replays-b");
    // The counter's windows start on the clock's minute: all 11 replays go in one.
    await awaitWindowRoom(10_000);
    const replays = await Promise.all(
      Array.from({ length: 10 }, () =>
        api("POST", `/api/webhook_messages/${sent!.id}/replay`, token),
      ),
    );
    expect(replays.every((replay) => replay.status === 202)).toBe(true);
    const total = (key: "endpoints" | "already_pending") =>
      replays.reduce((sum, replay) => sum + replay.body[key], 0);
    expect({ endpoints: total("endpoints"), already_pending: total("already_pending") }).toEqual({
      endpoints: 2,
      already_pending: 18,
    });
    expect(await items()).toBe(4);
    const refused = await fetch(`${server.url}/api/webhook_messages/${sent!.id}/replay`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await items()).toBe(4);
    holding.clear();
    for (const response of held.splice(0)) response.writeHead(200).end("ok");
    await server.deliverWebhooks();
    expect(verified("/replays-a", first.secret).map((delivery) => delivery.id)).toEqual([sent!.id]);
    expect(verified("/replays-b", second.secret).map((delivery) => delivery.id)).toEqual([
      sent!.id,
    ]);
  });

  it("signs with the new and the previous secret for a day after a rotation", async () => {
    const token = await newUser("rotation");
    const rotating = await endpoint(token, "/rotating");
    const rotated = await api("POST", `/api/webhook_endpoints/${rotating.id}/rotate_secret`, token);
    expect(rotated.status).toBe(200);
    await api("POST", "/api/notes", token, { title: "After the rotation" });
    await server.deliverWebhooks();
    const [delivery] = received.filter((each) => each.path === "/rotating");
    expect(String(delivery!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verified("/rotating", rotated.body.secret)).toHaveLength(1);
    expect(verified("/rotating", rotating.secret)).toHaveLength(1);
    expect(() => verified("/rotating", `whsec_${Buffer.alloc(24).toString("base64")}`)).toThrow();
  });
});

describe("an endpoint's custom headers", () => {
  it("arrive with every delivery, and no answer of the API shows their values", async () => {
    const token = await newUser("headers");
    const created = await api("POST", "/api/webhook_endpoints", token, {
      url: `${receiverUrl}/with-headers`,
      headers: { "X-Receiver-Key": "k-123456", "X-Team": "blue" },
    });
    expect(created.status).toBe(201);
    expect(created.body.header_names).toEqual(["X-Receiver-Key", "X-Team"]);
    const listed = await api("GET", "/api/webhook_endpoints", token);
    expect(JSON.stringify(listed.body)).not.toContain("k-123456");
    await api("POST", "/api/notes", token, { title: "With headers" });
    await server.deliverWebhooks();
    const [delivery] = received.filter((each) => each.path === "/with-headers");
    expect(delivery?.headers["x-receiver-key"]).toBe("k-123456");
    expect(delivery?.headers["x-team"]).toBe("blue");
    expect(verified("/with-headers", created.body.secret)).toHaveLength(1);
    const stored = await server.query<{ headers: string }>(
      "SELECT headers FROM webhook_endpoints WHERE id = ?",
      created.body.id,
    );
    expect(stored[0]!.headers).not.toContain("k-123456");
  });
});

describe("the event catalog", () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);

  async function catalog() {
    const answer = await api("GET", "/api/webhook_event_types");
    expect(answer.status).toBe(200);
    return answer.body as { name: string; description: string; schema: object }[];
  }

  /** Checks every event's `data` against its catalog schema; answers the types seen. */
  async function validated(events: readonly Record<string, unknown>[]) {
    const schemas = new Map((await catalog()).map((type) => [type.name, type.schema]));
    return events.map((event) => {
      const validate = ajv.compile(schemas.get(String(event.type)) ?? false);
      expect(validate(event.data), JSON.stringify(validate.errors)).toBe(true);
      return event.type;
    });
  }

  it("lists the notes' and the projects' three events, whose schemas hold every real delivery", async () => {
    expect((await catalog()).map((type) => type.name)).toEqual([
      "note.created",
      "note.updated",
      "note.deleted",
      "project.created",
      "project.updated",
      "project.deleted",
    ]);
    const token = await newUser("catalog");
    const all = await endpoint(token, "/catalog");
    const created = await api("POST", "/api/notes", token, {
      title: "Schema",
      body: "text",
      due_on: "2026-12-24",
      rating: 4.5,
      word_count: 2,
      tags: { any: ["json"] },
    });
    expect(created.status).toBe(201);
    await api("PATCH", `/api/notes/${created.body.id}`, token, { body: null });
    await api("DELETE", `/api/notes/${created.body.id}`, token);
    await server.deliverWebhooks();
    const events = verified("/catalog", all.secret).map(({ payload }) => payload);
    expect(await validated(events)).toEqual(["note.created", "note.updated", "note.deleted"]);
  });

  it("sends nothing for a model that declares no events", async () => {
    const token = await newUser("quiet");
    await endpoint(token, "/quiet");
    expect((await api("POST", "/api/labels", token, { name: `l-${token.slice(-8)}` })).status).toBe(
      201,
    );
    await server.deliverWebhooks();
    expect(received.filter((delivery) => delivery.path === "/quiet")).toEqual([]);
  });

  it("sends a test event of a type to one endpoint, signed, logged and valid for its schema", async () => {
    const token = await newUser("tester");
    const tested = await endpoint(token, "/tested", ["note.deleted"]);
    const other = await endpoint(token, "/other");
    const path = `/api/webhook_endpoints/${tested.id}/test`;
    const sent = await api("POST", path, token, { type: "note.created" });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ message_id: expect.stringMatching(/^msg_/), type: "note.created" });
    expect((await api("POST", path, token, { type: "post.created" })).status).toBe(422);
    expect((await api("POST", path, token, { type: 1 })).status).toBe(400);
    const stranger = await newUser("stranger");
    expect((await api("POST", path, stranger, { type: "note.created" })).status).toBe(404);
    await server.deliverWebhooks();

    const deliveries = verified("/tested", tested.secret);
    expect(deliveries.map(({ id }) => id)).toEqual([sent.body.message_id]);
    expect(await validated(deliveries.map(({ payload }) => payload))).toEqual(["note.created"]);
    expect(verified("/other", other.secret)).toEqual([]);
    const attempts = await api("GET", `/api/webhook_endpoints/${tested.id}/attempts`, token);
    expect(attempts.body).toEqual([
      expect.objectContaining({ message_id: sent.body.message_id, status: "succeeded" }),
    ]);
  });

  it("truncates a record's event at the size outbound takes", () => {
    expect(MAXIMUM_RECORD_EVENT_BYTES).toBe(MAXIMUM_PAYLOAD_BYTES);
  });
});
