import { signBody, signStandardWebhook } from "@tessera/signer";
import { describe, expect, it } from "vitest";
import {
  createWebhookProcessor,
  githubSignatureVerifier,
  MemoryWebhookEventStore,
  signatureHeaderVerifier,
  standardWebhookVerifier,
  type WebhookEvent,
  type WebhookEventStore,
  type WebhookProcessorOptions,
} from "../src/index.js";

const secret = "orders webhook secret";
const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

/** A processor on a memory store, with a movable clock and a record of the effect's calls. */
function setup(overrides: Partial<WebhookProcessorOptions> = {}) {
  const store = new MemoryWebhookEventStore();
  const calls: WebhookEvent[] = [];
  const time = { now: T0 };
  const processor = createWebhookProcessor({
    source: "orders",
    verify: signatureHeaderVerifier({ secret }),
    store,
    clock: () => time.now,
    effect: (event) => {
      calls.push(event);
    },
    ...overrides,
  });
  return { store, calls, time, processor };
}

function delivery(body: string, signature = signBody(body, secret)): Request {
  return new Request("https://app.example/webhooks/orders", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Signature": signature },
    body,
  });
}

async function answer(response: Response): Promise<{ status: number; body: unknown }> {
  expect(response.headers.get("content-type")).toBe("application/json");
  return { status: response.status, body: await response.json() };
}

const paid = JSON.stringify({
  id: "evt_1",
  type: "order.paid",
  data: { order_id: 7, amount: 1250 },
});

/**
 * A processor whose first run of the effect hangs, as a crashed worker would, with that first
 * delivery under way; `releases[0]()` lets it finish.
 */
async function hungFirstDelivery() {
  const releases: (() => void)[] = [];
  const calls: WebhookEvent[] = [];
  const setUp = setup({
    effect: (event) => {
      calls.push(event);
      if (event.attempts === 1) return new Promise<void>((resolve) => releases.push(resolve));
    },
  });
  const first = setUp.processor.handle(delivery(paid));
  await expect.poll(() => calls.length).toBe(1);
  return { ...setUp, calls, first, releases };
}

describe("createWebhookProcessor", () => {
  it("runs the effect for a new event, records it and answers processed", async () => {
    const { store, calls, processor } = setup();
    expect(await answer(await processor.handle(delivery(paid)))).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ source: "orders", id: "evt_1", rawBody: paid, attempts: 1 });
    expect(calls[0]!.payload).toEqual(JSON.parse(paid));
    expect(store.get("orders", "evt_1")).toEqual({
      source: "orders",
      eventId: "evt_1",
      payload: paid,
      status: "processed",
      attempts: 1,
      error: null,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it("answers a repeated delivery duplicate without running the effect again", async () => {
    const { store, calls, processor } = setup();
    await processor.handle(delivery(paid));
    expect(await answer(await processor.handle(delivery(paid)))).toEqual({
      status: 200,
      body: { status: "duplicate" },
    });
    expect(calls).toHaveLength(1);
    expect(store.get("orders", "evt_1")).toMatchObject({ status: "processed", attempts: 1 });
  });

  it("answers 401 with the error envelope for a missing or wrong signature, recording nothing", async () => {
    const { store, calls, processor } = setup();
    const unsigned = new Request("https://app.example/webhooks/orders", {
      method: "POST",
      body: paid,
    });
    const unauthorized = {
      status: 401,
      body: { error: { code: "invalid_signature", message: "Unauthorized", status: 401 } },
    };
    expect(await answer(await processor.handle(unsigned))).toEqual(unauthorized);
    expect(await answer(await processor.handle(delivery(paid, signBody(paid, "other"))))).toEqual(
      unauthorized,
    );
    expect(await processor.process({ headers: {}, body: paid })).toMatchObject({
      status: 401,
      detail: "missing-header",
    });
    expect(calls).toHaveLength(0);
    expect(store.get("orders", "evt_1")).toBeUndefined();
  });

  it.each([
    ["not JSON", "{not json", "the body is not valid JSON"],
    ["not UTF-8", new Uint8Array([0x7b, 0xff, 0x7d]), "the body is not valid JSON"],
    ["a JSON array", '[{"id":"evt_1"}]', "invalid type: expected a JSON object"],
    ["no id", '{"type":"order.paid"}', "missing field `id`"],
    [
      "a boolean id",
      '{"id":true}',
      "invalid type for field `id`: expected a non-empty string or a number",
    ],
    [
      "an empty id",
      '{"id":""}',
      "invalid type for field `id`: expected a non-empty string or a number",
    ],
    [
      "a null id",
      '{"id":null}',
      "invalid type for field `id`: expected a non-empty string or a number",
    ],
    [
      "an id JavaScript cannot hold exactly",
      '{"id":12345678901234567891}',
      "invalid value for field `id`: integer beyond ±9007199254740991; send it as a string",
    ],
    // PostgreSQL cannot store a NUL and SQLite can; a lone surrogate would be stored as
    // U+FFFD, so two ids would become one.
    [
      "an id holding a NUL",
      '{"id":"evt\\u00001"}',
      "invalid value for field `id`: NUL character in string",
    ],
    [
      "an id holding a lone surrogate",
      '{"id":"evt\\ud800"}',
      "invalid value for field `id`: lone surrogate in string",
    ],
  ])("answers 400 for a signed body that is %s", async (_name, body, reason) => {
    const { store, calls, processor } = setup();
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    const request = new Request("https://app.example/webhooks/orders", {
      method: "POST",
      headers: { "X-Signature": signBody(bytes, secret) },
      body: bytes,
    });
    expect(await answer(await processor.handle(request))).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message: `Failed to deserialize the JSON body into the target type: ${reason}`,
          status: 400,
        },
      },
    });
    expect(calls).toHaveLength(0);
    expect(store.get("orders", "evt_1")).toBeUndefined();
  });

  it("takes a numeric id as its decimal text", async () => {
    const { store, calls, processor } = setup();
    const body = '{"id":42,"type":"ping"}';
    expect((await processor.handle(delivery(body))).status).toBe(200);
    expect(calls[0]!.id).toBe("42");
    expect(store.get("orders", "42")).toMatchObject({ status: "processed" });
  });

  it("marks a failed effect with its message, answers 500, and runs it again on the next delivery", async () => {
    let failuresLeft = 1;
    const { store, calls, processor, time } = setup({
      effect: (event) => {
        calls.push(event);
        if (failuresLeft-- > 0) throw new Error("data.amount is not a number");
      },
    });
    expect(await answer(await processor.handle(delivery(paid)))).toEqual({
      status: 500,
      body: {
        error: { code: "effect_failed", message: "Webhook processing failed", status: 500 },
      },
    });
    expect(store.get("orders", "evt_1")).toMatchObject({
      status: "failed",
      attempts: 1,
      error: "data.amount is not a number",
    });

    time.now += 1000;
    expect(await answer(await processor.handle(delivery(paid)))).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(calls.map((event) => event.attempts)).toEqual([1, 2]);
    expect(store.get("orders", "evt_1")).toMatchObject({
      status: "processed",
      attempts: 2,
      error: "data.amount is not a number",
      updatedAt: T0 + 1000,
    });
  });

  it("keeps a NUL of a failed effect's message as U+FFFD, which every store can hold", async () => {
    const memory = new MemoryWebhookEventStore();
    // As PostgreSQL answers a text parameter holding NUL.
    const store: WebhookEventStore = {
      claim: (claim) => memory.claim(claim),
      markProcessed: (reference) => memory.markProcessed(reference),
      async markFailed(failure) {
        if (failure.error.includes("\u0000")) throw new Error("invalid byte sequence: 0x00");
        return memory.markFailed(failure);
      },
    };
    const { processor } = setup({
      store,
      effect: () => {
        throw new Error("order o\u00001 is unknown");
      },
    });
    expect(await answer(await processor.handle(delivery(paid)))).toEqual({
      status: 500,
      body: {
        error: { code: "effect_failed", message: "Webhook processing failed", status: 500 },
      },
    });
    expect(memory.get("orders", "evt_1")).toMatchObject({
      status: "failed",
      error: "order o\uFFFD1 is unknown",
    });
  });

  it("treats an event processing for 5 minutes as in progress, and takes it over after that", async () => {
    const { store, calls, processor, time, first, releases } = await hungFirstDelivery();

    time.now = T0 + 300_000;
    const inProgress = await processor.handle(delivery(paid));
    expect(inProgress.headers.get("retry-after")).toBe("1");
    expect(await answer(inProgress)).toEqual({
      status: 409,
      body: {
        error: {
          code: "event_in_progress",
          message: "This event is being processed; retry later.",
          status: 409,
        },
      },
    });
    time.now = T0 + 301_000;
    expect(await answer(await processor.handle(delivery(paid)))).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(calls.map((event) => event.attempts)).toEqual([1, 2]);
    expect(store.get("orders", "evt_1")).toMatchObject({ status: "processed", attempts: 2 });

    // The presumed-dead invocation finishes late: its mark must not touch the newer claim.
    releases[0]!();
    expect((await first).status).toBe(200);
    expect(store.get("orders", "evt_1")).toMatchObject({
      status: "processed",
      attempts: 2,
      updatedAt: T0 + 301_000,
    });
  });

  it("answers 409 with Retry-After while another delivery of the event is still running, never 2xx", async () => {
    const { store, calls, processor, time, first, releases } = await hungFirstDelivery();

    const busy = {
      status: 409,
      body: {
        error: {
          code: "event_in_progress",
          message: "This event is being processed; retry later.",
          status: 409,
        },
      },
    };
    // Seconds until the claim may be taken over: 300 s after its last touch, plus the
    // second that "more than 300 s" and second-granular stored times can add.
    const live = await processor.handle(delivery(paid));
    expect(live.headers.get("retry-after")).toBe("301");
    expect(await answer(live)).toEqual(busy);
    time.now = T0 + 120_500;
    const later = await processor.handle(delivery(paid));
    expect(later.headers.get("retry-after")).toBe("181");
    expect(await answer(later)).toEqual(busy);
    expect(
      await processor.process({ headers: { "x-signature": signBody(paid, secret) }, body: paid }),
    ).toEqual({ ...busy, eventId: "evt_1", retryAfterSeconds: 181 });
    expect(calls).toHaveLength(1);
    expect(store.get("orders", "evt_1")).toMatchObject({ status: "processing", attempts: 1 });

    releases[0]!();
    expect(await answer(await first)).toEqual({ status: 200, body: { status: "processed" } });
    const repeat = await processor.handle(delivery(paid));
    expect(repeat.headers.get("retry-after")).toBeNull();
    expect(await answer(repeat)).toEqual({ status: 200, body: { status: "duplicate" } });
    expect(calls).toHaveLength(1);
  });

  it("keeps a late failure of a taken-over invocation from overwriting its successor", async () => {
    const rejections: ((error: Error) => void)[] = [];
    const { store, processor, time } = setup({
      effect: (event) => {
        if (event.attempts === 1) return new Promise<void>((_, reject) => rejections.push(reject));
      },
    });
    const first = processor.handle(delivery(paid));
    await expect.poll(() => rejections.length).toBe(1);
    time.now = T0 + 301_000;
    expect((await processor.handle(delivery(paid))).status).toBe(200);
    rejections[0]!(new Error("timed out talking to the warehouse"));
    expect((await first).status).toBe(500);
    expect(store.get("orders", "evt_1")).toMatchObject({
      status: "processed",
      attempts: 2,
      error: null,
    });
  });

  it("refuses a body over the limit with 413, declared or streamed", async () => {
    const { calls, processor } = setup({ maxBodyBytes: 64 });
    const big = JSON.stringify({ id: "evt_big", padding: "x".repeat(100) });
    const tooLarge = {
      status: 413,
      body: {
        error: {
          code: "payload_too_large",
          message: "Request body is too large (maximum is 64 bytes)",
          status: 413,
        },
      },
    };
    expect(await answer(await processor.handle(delivery(big)))).toEqual(tooLarge);
    const bytes = new TextEncoder().encode(big);
    const streamed = new Request("https://app.example/webhooks/orders", {
      method: "POST",
      headers: { "X-Signature": signBody(big, secret) },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 40));
          controller.enqueue(bytes.subarray(40));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.headers.get("content-length")).toBeNull();
    expect(await answer(await processor.handle(streamed))).toEqual(tooLarge);
    expect(await processor.process({ headers: {}, body: big })).toMatchObject({ status: 413 });
    expect(calls).toHaveLength(0);
  });

  it("reads a multi-chunk streamed body within the limit whole", async () => {
    const { calls, processor } = setup();
    const bytes = new TextEncoder().encode(paid);
    const streamed = new Request("https://app.example/webhooks/orders", {
      method: "POST",
      headers: { "X-Signature": signBody(paid, secret) },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.subarray(i, i + 7));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect((await processor.handle(streamed)).status).toBe(200);
    expect(calls[0]!.rawBody).toBe(paid);
  });

  it("uses webhook-id as the event id for Standard Webhooks, whatever the body holds", async () => {
    const whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const { store, calls, processor } = setup({
      source: "billing",
      verify: standardWebhookVerifier({ secret: whsec, clock: () => T0 }),
    });
    const body = '{"type":"invoice.paid","id":"not-this-one"}';
    const headers = signStandardWebhook({
      id: "msg_2Kb",
      timestamp: T0 / 1000,
      body,
      secret: whsec,
    });
    const request = () =>
      new Request("https://app.example/webhooks/billing", { method: "POST", headers, body });
    expect((await processor.handle(request())).status).toBe(200);
    expect(await answer(await processor.handle(request()))).toEqual({
      status: 200,
      body: { status: "duplicate" },
    });
    expect(calls.map((event) => event.id)).toEqual(["msg_2Kb"]);
    expect(store.get("billing", "msg_2Kb")).toMatchObject({ status: "processed" });
  });

  it("reads the event id where `eventId` says, such as GitHub's delivery header", async () => {
    const { store, processor } = setup({
      source: "github",
      verify: githubSignatureVerifier({ secret }),
      eventId: (_payload, delivery) => (delivery.headers as Headers).get("x-github-delivery"),
    });
    const body = '{"zen":"Keep it logically awesome.","hook_id":1}';
    const request = (guid?: string) =>
      new Request("https://app.example/webhooks/github", {
        method: "POST",
        headers: {
          "X-Hub-Signature-256": `sha256=${signBody(body, secret)}`,
          ...(guid ? { "X-GitHub-Delivery": guid } : {}),
        },
        body,
      });
    expect((await processor.handle(request("72d3162e-cc78-11e3-81ab-4c9367dc0958"))).status).toBe(
      200,
    );
    expect(store.get("github", "72d3162e-cc78-11e3-81ab-4c9367dc0958")).toMatchObject({
      status: "processed",
    });
    expect(await answer(await processor.handle(request()))).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message: "Failed to deserialize the JSON body into the target type: missing field `id`",
          status: 400,
        },
      },
    });
  });

  it("reads the event id from `eventIdHeader` and names that header when it is missing", async () => {
    const { store, processor } = setup({
      source: "github",
      verify: githubSignatureVerifier({ secret }),
      eventIdHeader: "X-GitHub-Delivery",
    });
    const body = '{"zen":"Design for failure.","id":"not-this-one"}';
    const headers = { "X-Hub-Signature-256": `sha256=${signBody(body, secret)}` };
    expect(
      await processor.process({ headers: { ...headers, "x-github-delivery": "d-1" }, body }),
    ).toEqual({ status: 200, body: { status: "processed" }, eventId: "d-1" });
    expect(store.get("github", "d-1")).toMatchObject({ status: "processed" });
    const missing = {
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message:
            "Failed to deserialize the JSON body into the target type: missing header `X-GitHub-Delivery`",
          status: 400,
        },
      },
    };
    expect(await processor.process({ headers, body })).toMatchObject(missing);
    expect(
      await processor.process({ headers: { ...headers, "X-GitHub-Delivery": "" }, body }),
    ).toMatchObject(missing);
    expect(store.get("github", "not-this-one")).toBeUndefined();
    expect(() =>
      setup({ eventIdHeader: "X-GitHub-Delivery", eventId: (payload) => payload }),
    ).toThrow(new RangeError("give eventId or eventIdHeader, not both"));
  });

  it("refuses an event id holding a NUL from any source: a header object, `eventId`, webhook-id", async () => {
    const github = setup({
      source: "github",
      verify: githubSignatureVerifier({ secret }),
      eventIdHeader: "X-GitHub-Delivery",
    });
    const body = '{"zen":"Keep it logically awesome."}';
    const signed = { "x-hub-signature-256": `sha256=${signBody(body, secret)}` };
    // HTTP forbids a NUL in a header; a plain header object was not necessarily parsed by one.
    expect(
      await github.processor.process({
        headers: { ...signed, "x-github-delivery": "d\u00001" },
        body,
      }),
    ).toMatchObject({
      status: 400,
      detail: "invalid value for header `X-GitHub-Delivery`: NUL character in string",
    });
    const custom = setup({ eventId: (payload) => (payload as { ref: string }).ref });
    const refBody = '{"ref":"r\\u0000"}';
    expect(
      await custom.processor.process({ headers: delivery(refBody).headers, body: refBody }),
    ).toMatchObject({
      status: 400,
      detail: "invalid value for field `id`: NUL character in string",
    });
    const whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const billing = setup({
      source: "billing",
      verify: standardWebhookVerifier({ secret: whsec, clock: () => T0 }),
    });
    const headers = signStandardWebhook({
      id: "msg\u0000",
      timestamp: T0 / 1000,
      body,
      secret: whsec,
    });
    expect(await billing.processor.process({ headers, body })).toMatchObject({
      status: 400,
      detail: "invalid value for field `id`: NUL character in string",
    });
    for (const each of [github, custom, billing]) expect(each.calls).toEqual([]);
  });

  it("process() serves frameworks that hand over a raw body and Node headers", async () => {
    const { processor } = setup();
    const outcome = await processor.process({
      headers: { "x-signature": signBody(paid, secret), "content-type": "application/json" },
      body: Buffer.from(paid),
    });
    expect(outcome).toEqual({ status: 200, body: { status: "processed" }, eventId: "evt_1" });
  });
});
