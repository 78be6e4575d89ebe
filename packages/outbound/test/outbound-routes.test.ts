// The JSON routes of `@tessera/outbound/routes`, mounted alone: whose endpoints a request sees
// is the owner resolver's answer, on any base path, and the refusals keep their locale.
import { jsonError, type RouteContext, routeRequests } from "@tessera/http";
import { OutboundWebhooks, outboundSecretKeys } from "@tessera/outbound";
import {
  type EndpointOwnerResolver,
  type EventTypeDescription,
  outboundRoutes,
  WEBHOOK_REPLAY_RATE_LIMIT,
  webhookEventTypesRoute,
} from "@tessera/outbound/routes";
import { SqlOutboundStore } from "@tessera/outbound/sql";
import { SqlOutbox } from "@tessera/outbox/sql";
import { createRateLimiter, MemoryRateLimitStore } from "@tessera/ratelimit";
import { describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { sqliteFile } from "./support/databases.js";

const EVENT_TYPES: readonly EventTypeDescription[] = [
  {
    name: "note.created",
    description: "A note was created.",
    schema: {
      type: "object",
      properties: { id: { type: "integer", minimum: 1 }, title: { type: "string" } },
      required: ["id", "title"],
    },
  },
  { name: "note.deleted", description: "A note was deleted.", schema: { type: "object" } },
];

/** Owner 1 or 2 by the `x-owner` header; none is a 401. */
const headerOwner: EndpointOwnerResolver = async (request) => {
  const id = Number(request.headers.get("x-owner"));
  if (id !== 1 && id !== 2) return { ok: false, response: jsonError(401, "who?") };
  return { ok: true, value: { owner: { id, rateLimitKey: `user:${id}` } } };
};

/** An organization's endpoints: `acme` is owner 100 for its member (owner 1), else a 404. */
const organizationOwner: EndpointOwnerResolver<RouteContext> = async (request, { params }) => {
  if (params.slug !== "acme" || request.headers.get("x-owner") !== "1") {
    return { ok: false, response: jsonError(404, "Not found") };
  }
  return { ok: true, value: { owner: { id: 100, rateLimitKey: "org:100" } } };
};

async function mounted(options: { basePath?: string; owner?: EndpointOwnerResolver } = {}) {
  const { database } = await sqliteFile();
  const webhooks = new OutboundWebhooks({
    store: new SqlOutboundStore(database),
    outbox: new SqlOutbox(database),
    writer: database,
    secretKeys: outboundSecretKeys({ current: "a-test-secret-key-base-of-at-least-32-characters" }),
    policy: {},
    resolveHost: async () => ["93.184.216.34"],
  });
  const replayRateLimiter = createRateLimiter({
    store: new MemoryRateLimitStore(),
    limit: WEBHOOK_REPLAY_RATE_LIMIT.limit,
    windowMs: WEBHOOK_REPLAY_RATE_LIMIT.windowMs,
  });
  const handle = routeRequests([
    webhookEventTypesRoute(EVENT_TYPES),
    ...outboundRoutes({
      webhooks,
      owner: options.owner ?? headerOwner,
      eventTypes: EVENT_TYPES,
      rateLimiter: createRateLimiter({ store: new MemoryRateLimitStore() }),
      replayRateLimiter,
      basePath: options.basePath,
    }),
  ]);
  const send = async (
    method: string,
    route: string,
    owner: number | undefined,
    body?: unknown,
    locale = FRENCH,
  ) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (owner !== undefined) headers["x-owner"] = String(owner);
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    return (await handle(new Request(`http://app.example${route}`, init), { locale }))!;
  };
  return { send, webhooks };
}

describe("outboundRoutes in a locale", () => {
  it("write the locale's language headers into their answers, refusals included", async () => {
    const { send } = await mounted();
    expect(languageOf(await send("GET", "/api/webhook_endpoints", 1))).toEqual(inFrench(200));
    expect(languageOf(await send("GET", "/api/webhook_endpoints/ep_none", 1))).toEqual(
      inFrench(404),
    );
    expect(languageOf(await send("POST", "/api/webhook_messages/msg_none/replay", 1))).toEqual(
      inFrench(404),
    );
    const refused = await send("POST", "/api/webhook_endpoints", 1, { url: "http://10.0.0.1/" });
    expect(languageOf(refused)).toEqual(inFrench(422));
  });
});

describe("outboundRoutes' owner", () => {
  it("is the resolver's answer: its refusal is the answer, and each owner sees only their own", async () => {
    const { send } = await mounted();
    expect((await send("GET", "/api/webhook_endpoints", undefined)).status).toBe(401);
    const created = await send("POST", "/api/webhook_endpoints", 1, {
      url: "https://hooks.example/a",
      events: ["note.*"],
    });
    expect(created.status).toBe(201);
    const { id, secret } = (await created.json()) as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect((await send("GET", `/api/webhook_endpoints/${id}`, 1)).status).toBe(200);
    expect((await send("GET", `/api/webhook_endpoints/${id}`, 2)).status).toBe(404);
    expect((await send("DELETE", `/api/webhook_endpoints/${id}`, 2)).status).toBe(404);
    expect(await (await send("GET", "/api/webhook_endpoints", 2)).json()).toEqual([]);
    expect((await send("DELETE", `/api/webhook_endpoints/${id}`, 1)).status).toBe(204);
  });

  it("serves an organization's endpoints under its base path, for whom the resolver lets in", async () => {
    const { send, webhooks } = await mounted({
      basePath: "/api/orgs/:slug",
      owner: organizationOwner,
    });
    const path = "/api/orgs/acme/webhook_endpoints";
    const created = await send("POST", path, 1, { url: "https://hooks.example/org" });
    expect(created.status).toBe(201);
    expect((await webhooks.listEndpoints(100)).map((endpoint) => endpoint.url)).toEqual([
      "https://hooks.example/org",
    ]);
    expect(await webhooks.listEndpoints(1)).toEqual([]);
    expect((await send("GET", path, 2)).status).toBe(404);
    expect((await send("GET", "/api/orgs/other/webhook_endpoints", 1)).status).toBe(404);
  });

  it("refuses an event filter that takes none of the catalog's types, and takes a wildcard that does", async () => {
    const { send } = await mounted();
    const refused = await send("POST", "/api/webhook_endpoints", 1, {
      url: "https://hooks.example/a",
      events: ["post.*"],
    });
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { error: { fields: Record<string, string[]> } };
    expect(Object.keys(body.error.fields)).toEqual(["events"]);
  });
});

describe("an endpoint's headers and rate limit in JSON", () => {
  it("takes them, shows the header names and the limit, never a header's value", async () => {
    const { send } = await mounted();
    const created = await send("POST", "/api/webhook_endpoints", 1, {
      url: "https://hooks.example/h",
      headers: { "X-Api-Key": "s3cret-value", "X-Team": "blue" },
      rate_limit: 5,
    });
    expect(created.status).toBe(201);
    const text = await created.text();
    expect(text).not.toContain("s3cret-value");
    const endpoint = JSON.parse(text) as { id: string };
    expect(endpoint).toMatchObject({ header_names: ["X-Api-Key", "X-Team"], rate_limit: 5 });
    const changed = await send("PATCH", `/api/webhook_endpoints/${endpoint.id}`, 1, {
      headers: null,
      rate_limit: null,
    });
    expect(await changed.json()).toMatchObject({ header_names: [], rate_limit: null });
  });

  it("answers a refused header or limit with a 422 on the JSON field, a wrong shape with a 400", async () => {
    const { send } = await mounted();
    const create = (body: Record<string, unknown>) =>
      send(
        "POST",
        "/api/webhook_endpoints",
        1,
        { url: "https://hooks.example/h", ...body },
        undefined,
      );
    const reserved = await create({ headers: { "Webhook-Signature": "v1,forged" }, rate_limit: 0 });
    expect(reserved.status).toBe(422);
    expect(((await reserved.json()) as { error: { fields: unknown } }).error.fields).toEqual({
      headers: ["has a name that cannot be set"],
      rate_limit: ["must be a whole number of deliveries a second from 1 to 10,000"],
    });
    for (const [body, message] of [
      [{ headers: ["X-A"] }, "headers must be an object of header names to text values."],
      [{ headers: { "X-A": 1 } }, "headers must be an object of header names to text values."],
      [{ rate_limit: "5" }, "rate_limit must be a number or null."],
    ] as const) {
      const refused = await create(body);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        message,
      );
    }
  });
});

describe("webhookEventTypesRoute", () => {
  it("lists every event type with the schema of its data", async () => {
    const { send } = await mounted();
    const answer = await send("GET", "/api/webhook_event_types", undefined);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(EVENT_TYPES);
  });
});
