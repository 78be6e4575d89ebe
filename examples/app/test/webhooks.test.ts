import { createHmac } from "node:crypto";
import { signBody, signStandardWebhook } from "@tessera/signer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.js";

const ORDERS_SECRET = "orders-secret-for-tests";
const GITHUB_SECRET = "It's a Secret to Everybody";
const STRIPE_SECRET = "whsec_stripe_test_secret";
const BILLING_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    ORDERS_WEBHOOK_SECRET: ORDERS_SECRET,
    GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
    STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
    BILLING_WEBHOOK_SECRET: BILLING_SECRET,
  });
});
afterAll(() => server.stop());

async function deliver(source: string, body: string, headers: Record<string, string>) {
  const response = await fetch(`${server.url}/webhooks/${source}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: response.status, body: await response.json() };
}

let counter = 0;
const uniqueId = (prefix: string) => `${prefix}_${Date.now()}_${++counter}`;

function order(id: string, orderId: string, amount: unknown) {
  return JSON.stringify({ id, type: "order.paid", data: { order_id: orderId, amount } });
}

const IN_PROGRESS = {
  error: {
    code: "event_in_progress",
    message: "This event is being processed; retry later.",
    status: 409,
  },
};

const signedOrder = (body: string) => ({ "x-signature": signBody(body, ORDERS_SECRET) });

interface EventRow {
  status: string;
  attempts: number;
  error: string | null;
  payload: string;
}

describe("POST /webhooks/orders (X-Signature)", () => {
  it("records a paid order once, and answers a repeat delivery duplicate", async () => {
    const id = uniqueId("evt");
    const body = order(id, `order-${id}`, 42.5);
    expect(await deliver("orders", body, signedOrder(body))).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(await deliver("orders", body, signedOrder(body))).toEqual({
      status: 200,
      body: { status: "duplicate" },
    });
    expect(
      await server.query(
        "SELECT order_id, amount, event_id FROM paid_orders WHERE event_id = ?",
        id,
      ),
    ).toEqual([{ order_id: `order-${id}`, amount: 42.5, event_id: id }]);
    expect(
      await server.query<EventRow>(
        "SELECT status, attempts, error, payload FROM webhook_events WHERE source = 'orders' AND event_id = ?",
        id,
      ),
    ).toEqual([{ status: "processed", attempts: 1, error: null, payload: body }]);
  });

  it("accepts sha256=<hex>, uppercase hex and base64 signatures", async () => {
    for (const format of ["prefixed", "upper", "base64"] as const) {
      const id = uniqueId("evt");
      const body = order(id, `order-${id}`, 1);
      const hex = signBody(body, ORDERS_SECRET);
      const signature =
        format === "prefixed"
          ? `sha256=${hex}`
          : format === "upper"
            ? hex.toUpperCase()
            : Buffer.from(hex, "hex").toString("base64");
      expect((await deliver("orders", body, { "x-signature": signature })).body).toEqual({
        status: "processed",
      });
    }
  });

  it("answers 401 for a missing or wrong signature and records nothing", async () => {
    const id = uniqueId("evt");
    const body = order(id, `order-${id}`, 1);
    const unauthorized = {
      status: 401,
      body: { error: { code: "invalid_signature", message: "Unauthorized", status: 401 } },
    };
    expect(await deliver("orders", body, {})).toEqual(unauthorized);
    expect(
      await deliver("orders", body, { "x-signature": signBody(body, "another secret") }),
    ).toEqual(unauthorized);
    expect(await deliver("orders", `${body} `, signedOrder(body))).toEqual(unauthorized);
    expect(await server.query("SELECT id FROM webhook_events WHERE event_id = ?", id)).toEqual([]);
  });

  it("answers 400 for a signed body without an id, or not JSON", async () => {
    for (const body of ['{"type":"order.paid"}', "not json"]) {
      const response = await deliver("orders", body, signedOrder(body));
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(
        /^Failed to deserialize the JSON body into the target type: /,
      );
    }
  });

  it("fails an order.paid whose amount is not a number (500, event failed), then runs it again on retry", async () => {
    const id = uniqueId("evt");
    const bad = order(id, `order-${id}`, "12.00");
    const failed = await deliver("orders", bad, signedOrder(bad));
    expect(failed.status).toBe(500);
    expect(
      await server.query<EventRow>(
        "SELECT status, attempts, error FROM webhook_events WHERE event_id = ?",
        id,
      ),
    ).toEqual([
      { status: "failed", attempts: 1, error: "order.paid event data.amount is not a number" },
    ]);
    expect(await server.query("SELECT id FROM paid_orders WHERE event_id = ?", id)).toEqual([]);

    const mended = order(id, `order-${id}`, 12);
    expect(await deliver("orders", mended, signedOrder(mended))).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(
      await server.query<EventRow>(
        "SELECT status, attempts FROM webhook_events WHERE event_id = ?",
        id,
      ),
    ).toEqual([{ status: "processed", attempts: 2 }]);
    expect(await server.query("SELECT amount FROM paid_orders WHERE event_id = ?", id)).toEqual([
      { amount: 12 },
    ]);
  });

  it("runs the effect once for many simultaneous deliveries of one event", async () => {
    const id = uniqueId("evt");
    const body = order(id, `order-${id}`, 9);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => deliver("orders", body, signedOrder(body))),
    );
    const processed = answers.filter((answer) => answer.body.status === "processed");
    expect(processed).toHaveLength(1);
    // The others met the processed event (200, duplicate) or, while the effect ran, its live
    // claim (409, retry later): on PostgreSQL requests truly overlap.
    for (const answer of answers.filter((answer) => answer !== processed[0])) {
      expect([
        { status: 200, body: { status: "duplicate" } },
        { status: 409, body: IN_PROGRESS },
      ]).toContainEqual(answer);
    }
    expect(
      await server.query("SELECT order_id FROM paid_orders WHERE event_id = ?", id),
    ).toHaveLength(1);
    expect(
      await server.query<EventRow>("SELECT attempts FROM webhook_events WHERE event_id = ?", id),
    ).toEqual([{ attempts: 1 }]);
  });
});

describe("POST /webhooks/github (X-Hub-Signature-256)", () => {
  it("verifies the signature, names the event by X-GitHub-Delivery and records its type", async () => {
    const delivery = uniqueId("gh");
    const body = JSON.stringify({ action: "opened", zen: "Keep it logically awesome." });
    const signature = `sha256=${createHmac("sha256", GITHUB_SECRET).update(body).digest("hex")}`;
    const headers = {
      "x-hub-signature-256": signature,
      "x-github-delivery": delivery,
      "x-github-event": "issues",
    };
    expect(await deliver("github", body, headers)).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(await deliver("github", body, headers)).toEqual({
      status: 200,
      body: { status: "duplicate" },
    });
    expect(
      await server.query(
        "SELECT event_type FROM webhook_receipts WHERE source = 'github' AND event_id = ?",
        delivery,
      ),
    ).toEqual([{ event_type: "issues" }]);
    const unsigned = await deliver("github", body, {
      ...headers,
      "x-hub-signature-256": "sha256=00",
    });
    expect(unsigned.status).toBe(401);
  });
});

describe("POST /webhooks/github without X-GitHub-Delivery", () => {
  it("answers 400 naming the header, and records nothing", async () => {
    const body = JSON.stringify({ action: "opened", id: "not-an-event-id" });
    const signature = `sha256=${createHmac("sha256", GITHUB_SECRET).update(body).digest("hex")}`;
    expect(await deliver("github", body, { "x-hub-signature-256": signature })).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message:
            "Failed to deserialize the JSON body into the target type: missing header `X-GitHub-Delivery`",
          status: 400,
        },
      },
    });
    expect(
      await server.query("SELECT id FROM webhook_events WHERE event_id = 'not-an-event-id'"),
    ).toEqual([]);
  });
});

describe("POST /webhooks/stripe (t=,v1=)", () => {
  const stripeHeader = (body: string, timestamp: number) =>
    `t=${timestamp},v1=${createHmac("sha256", STRIPE_SECRET).update(`${timestamp}.${body}`).digest("hex")}`;

  it("accepts a fresh signature and refuses one older than 300 seconds", async () => {
    const id = uniqueId("evt");
    const body = JSON.stringify({ id, type: "invoice.paid" });
    const now = Math.floor(Date.now() / 1000);
    expect(await deliver("stripe", body, { "stripe-signature": stripeHeader(body, now) })).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(
      await server.query(
        "SELECT event_type FROM webhook_receipts WHERE source = 'stripe' AND event_id = ?",
        id,
      ),
    ).toEqual([{ event_type: "invoice.paid" }]);
    const stale = JSON.stringify({ id: uniqueId("evt"), type: "invoice.paid" });
    expect(
      (await deliver("stripe", stale, { "stripe-signature": stripeHeader(stale, now - 301) }))
        .status,
    ).toBe(401);
  });
});

describe("POST /webhooks/billing (Standard Webhooks)", () => {
  it("takes the event id from webhook-id and refuses a tampered body", async () => {
    const id = uniqueId("msg");
    const body = JSON.stringify({ type: "subscription.renewed", data: { plan: "pro" } });
    const headers = signStandardWebhook({ id, body, secret: BILLING_SECRET });
    expect(await deliver("billing", body, { ...headers })).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(await deliver("billing", body, { ...headers })).toEqual({
      status: 200,
      body: { status: "duplicate" },
    });
    expect(
      await server.query(
        "SELECT event_type FROM webhook_receipts WHERE source = 'billing' AND event_id = ?",
        id,
      ),
    ).toEqual([{ event_type: "subscription.renewed" }]);
    const tampered = body.replace("pro", "enterprise");
    expect((await deliver("billing", tampered, { ...headers })).status).toBe(401);
  });
});

describe("an endpoint without its secret", () => {
  it("answers 503 naming the variable", async () => {
    const bare = await startTestServer();
    try {
      const response = await fetch(`${bare.url}/webhooks/orders`, { method: "POST", body: "{}" });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: {
          code: "unavailable",
          message: "This webhook endpoint is off: set ORDERS_WEBHOOK_SECRET to turn it on.",
          status: 503,
        },
      });
    } finally {
      await bare.stop();
    }
  });
});

describe("webhook routes and the cookie session", () => {
  it("never open a session cookie sent along, which the pages would expire", async () => {
    const cookie = "_tessera_session=not-a-sealed-session";
    const id = uniqueId("evt");
    const body = order(id, `order-${id}`, 5);
    const delivered = await fetch(`${server.url}/webhooks/orders`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, ...signedOrder(body) },
      body,
    });
    expect(delivered.status).toBe(200);
    expect(delivered.headers.get("set-cookie")).toBeNull();
    // The same cookie on a page behind the session is read, found invalid and expired.
    const page = await fetch(`${server.url}/login`, { headers: { cookie } });
    expect(page.headers.get("set-cookie")).toMatch(/^_tessera_session=;/);
  });
});
