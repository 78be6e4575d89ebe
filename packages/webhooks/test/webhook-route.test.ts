import { routeRequests } from "@tessera/http";
import { signBody } from "@tessera/signer";
import { describe, expect, it } from "vitest";
import {
  MemoryWebhookEventStore,
  signatureHeaderVerifier,
  type WebhookEvent,
  webhookRoute,
} from "../src/index.js";

const secret = "orders webhook secret";

function mounted(path?: string) {
  const store = new MemoryWebhookEventStore();
  const calls: WebhookEvent[] = [];
  const route = webhookRoute({
    source: "orders",
    verify: signatureHeaderVerifier({ secret }),
    store,
    effect: (event) => {
      calls.push(event);
    },
    ...(path ? { path } : {}),
  });
  return { route, calls, handle: routeRequests([route]) };
}

function delivery(path: string, body: string, signature = signBody(body, secret)) {
  return new Request(`https://app.example${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-signature": signature },
    body,
  });
}

describe("webhookRoute", () => {
  it("answers POST /webhooks/<source>: processed once, then a duplicate", async () => {
    const { route, handle, calls } = mounted();
    expect([route.method, route.path]).toEqual(["POST", "/webhooks/orders"]);
    // Spacing a re-serializing body parser would lose: the signature covers these bytes.
    const body = '{ "id": "evt_1",  "type": "order.paid" }';
    const first = await handle(delivery("/webhooks/orders", body));
    expect(await first?.json()).toMatchObject({ status: "processed" });
    const replay = await handle(delivery("/webhooks/orders", body));
    expect(await replay?.json()).toMatchObject({ status: "duplicate" });
    expect(calls).toHaveLength(1);
  });

  it("refuses a wrong signature with 401 and runs nothing", async () => {
    const { handle, calls } = mounted();
    const forged = await handle(delivery("/webhooks/orders", '{"id":"evt_2"}', "0".repeat(64)));
    expect(forged?.status).toBe(401);
    expect(calls).toEqual([]);
  });

  it("answers at another path when told", async () => {
    const { handle } = mounted("/hooks/shop");
    expect((await handle(delivery("/hooks/shop", '{"id":"evt_3"}')))?.status).toBe(200);
    expect(await handle(delivery("/webhooks/orders", '{"id":"evt_4"}'))).toBeUndefined();
  });
});

describe("webhookRoute's options", () => {
  const verify = signatureHeaderVerifier({ secret: "a-test-secret" });
  const complete = {
    source: "orders",
    verify,
    store: new MemoryWebhookEventStore(),
    effect: () => {},
  };

  it.each([
    [{ ...complete, source: undefined }, "webhookRoute: `source` is missing"],
    [{ ...complete, verify: undefined }, "webhookRoute: `verify` is missing"],
    [{ ...complete, store: undefined }, "webhookRoute: `store` is missing"],
    [
      { ...complete, store: { claim: () => {} } },
      "webhookRoute: `store` has no `markProcessed` method",
    ],
    [{ ...complete, effect: "log" }, "webhookRoute: `effect` is not a function"],
  ])("refuses a mistake when the route is built, naming the option (%#)", (options, message) => {
    expect(() => webhookRoute(options as never)).toThrow(TypeError);
    expect(() => webhookRoute(options as never)).toThrow(message);
  });

  it("builds the route from complete options", () => {
    expect(webhookRoute(complete)).toMatchObject({ method: "POST", path: "/webhooks/orders" });
  });
});
