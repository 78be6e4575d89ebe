import { defineModel } from "@tessera/fields";
import { routeRequests } from "@tessera/http";
import { signBody } from "@tessera/signer";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  MemoryWebhookEventStore,
  type PayloadSchema,
  signatureHeaderVerifier,
  type WebhookEvent,
  webhookRoute,
} from "../src/index.js";

const secret = "orders webhook secret";

/** A route at /webhooks/orders validating with `schema`, recording what the effect received. */
function mounted<Payload>(schema: PayloadSchema<Payload>) {
  const store = new MemoryWebhookEventStore();
  const received: WebhookEvent<Payload>[] = [];
  const route = webhookRoute({
    source: "orders",
    verify: signatureHeaderVerifier({ secret }),
    store,
    payload: schema,
    effect: (event) => {
      received.push(event);
    },
  });
  return { store, received, handle: routeRequests([route]) };
}

async function deliver(handle: ReturnType<typeof mounted>["handle"], body: string) {
  const response = await handle(
    new Request("https://app.example/webhooks/orders", {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature": signBody(body, secret) },
      body,
    }),
  );
  if (!response) throw new Error("the route did not answer");
  return { status: response.status, body: await response.json() };
}

const zodOrder = z.object({
  id: z.string(),
  type: z.literal("order.paid"),
  data: z.object({ amount: z.number().int().positive() }),
});

const valibotOrder = v.objectAsync({
  id: v.string(),
  type: v.literal("order.paid"),
  // Async on purpose: `validate` may return a promise.
  data: v.pipeAsync(
    v.object({ amount: v.number() }),
    v.checkAsync(async (data) => data.amount > 0, "must be positive"),
  ),
});

const paid = '{"id":"evt_1","type":"order.paid","data":{"amount":1200}}';
const wrongAmount = '{"id":"evt_2","type":"order.paid","data":{"amount":"1200"}}';

describe("webhookRoute with a payload schema", () => {
  it("hands the effect zod's typed output and records the event processed", async () => {
    const { handle, received, store } = mounted(zodOrder);
    expect(await deliver(handle, paid)).toEqual({ status: 200, body: { status: "processed" } });
    expect(received.map((event) => event.payload)).toEqual([
      { id: "evt_1", type: "order.paid", data: { amount: 1200 } },
    ]);
    expectTypeOf(received[0]!.payload.data.amount).toEqualTypeOf<number>();
    expect(store.get("orders", "evt_1")?.status).toBe("processed");
  });

  it("answers a payload zod refuses with 400 naming the field, records nothing, runs nothing", async () => {
    const { handle, received, store } = mounted(zodOrder);
    const refused = await deliver(handle, wrongAmount);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(
      /^Failed to deserialize the JSON body into the target type: invalid value for field `data\.amount`: /,
    );
    expect(refused.body.error.code).toBe("bad_request");
    expect(received).toEqual([]);
    expect(store.get("orders", "evt_2")).toBeUndefined();
  });

  it("processes the same event once its sender fixes the payload", async () => {
    const { handle, received } = mounted(zodOrder);
    expect((await deliver(handle, wrongAmount)).status).toBe(400);
    const fixed = '{"id":"evt_2","type":"order.paid","data":{"amount":1200}}';
    expect(await deliver(handle, fixed)).toEqual({ status: 200, body: { status: "processed" } });
    expect(received).toHaveLength(1);
  });

  it("gives the effect a schema's transformed output, not the raw body", async () => {
    const cents = z.object({
      id: z.string(),
      amount: z.string().transform((text) => Number(text)),
    });
    const { handle, received } = mounted(cents);
    await deliver(handle, '{"id":"evt_3","amount":"42"}');
    expect(received[0]?.payload).toEqual({ id: "evt_3", amount: 42 });
    expect(received[0]?.rawBody).toBe('{"id":"evt_3","amount":"42"}');
  });

  it("awaits an async valibot schema, both ways", async () => {
    const { handle, received } = mounted(valibotOrder);
    expect((await deliver(handle, paid)).status).toBe(200);
    const negative = await deliver(
      handle,
      '{"id":"evt_4","type":"order.paid","data":{"amount":-5}}',
    );
    expect(negative.status).toBe(400);
    expect(negative.body.error.message).toContain(
      "invalid value for field `data`: must be positive",
    );
    expect(received.map((event) => event.id)).toEqual(["evt_1"]);
  });

  it("names at most five issues and counts the rest", async () => {
    const many = z.object(
      Object.fromEntries(["a", "b", "c", "d", "e", "f", "g"].map((key) => [key, z.string()])),
    );
    const { handle } = mounted(many);
    const refused = await deliver(handle, '{"id":"evt_5"}');
    expect(refused.status).toBe(400);
    expect(refused.body.error.message.match(/invalid value for field/g)).toHaveLength(5);
    expect(refused.body.error.message).toMatch(/ \(and 2 more\)$/);
  });

  it("takes a @tessera/fields model's create schema, with its exact messages", async () => {
    const order = defineModel("order", "reference:string amount:integer");
    const { handle, received } = mounted(order.create);
    const body = '{"id":"evt_6","reference":"A-1","amount":7}';
    expect((await deliver(handle, body)).status).toBe(200);
    expect(received[0]?.payload).toEqual({ reference: "A-1", amount: 7 });
    expectTypeOf(received[0]!.payload.amount).toEqualTypeOf<number>();
    const blank = await deliver(handle, '{"id":"evt_7","reference":" ","amount":7}');
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toContain(
      "invalid value for field `reference`: can't be blank",
    );
    const missing = await deliver(handle, '{"id":"evt_8","reference":"A-2"}');
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(
      "Failed to deserialize the JSON body into the target type: missing field `amount`",
    );
  });

  it("still reads the id first: a body without one is the spec's 400", async () => {
    const { handle } = mounted(zodOrder);
    const refused = await deliver(handle, '{"type":"order.paid"}');
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      "Failed to deserialize the JSON body into the target type: missing field `id`",
    );
  });

  it("leaves the payload unknown without a schema", () => {
    webhookRoute({
      source: "plain",
      verify: signatureHeaderVerifier({ secret }),
      store: new MemoryWebhookEventStore(),
      effect: (event) => {
        expectTypeOf(event.payload).toEqualTypeOf<unknown>();
      },
    });
  });
});
