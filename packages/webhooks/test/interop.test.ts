import { sign as octokitSign, verify as octokitVerify } from "@octokit/webhooks-methods";
import { signBody, signStandardWebhook } from "@tessera/signer";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { Webhook as SvixWebhook } from "svix";
import { describe, expect, it } from "vitest";
import {
  githubSignatureVerifier,
  standardWebhookVerifier,
  timestampedSignatureVerifier,
} from "../src/index.js";

// Peers read the real clock, so these tests sign and verify at the real current time.
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const otherSecret = "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=";
const payload = JSON.stringify({
  id: "evt_42",
  type: "order.paid",
  data: { amount: 1250, note: "naïve ✓" },
});
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("standardwebhooks (reference library)", () => {
  it("its signatures verify with ours", () => {
    const timestamp = nowSeconds();
    const signature = new StandardWebhook(secret).sign(
      "msg_1",
      new Date(timestamp * 1000),
      payload,
    );
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signature,
    };
    expect(standardWebhookVerifier({ secret })({ headers, body: payload })).toEqual({
      ok: true,
      value: { eventId: "msg_1", timestamp },
    });
    expect(standardWebhookVerifier({ secret: otherSecret })({ headers, body: payload })).toEqual({
      ok: false,
      reason: "signature-mismatch",
    });
  });

  it("ours verify with it, one secret or two during a rotation", () => {
    const single = signStandardWebhook({ id: "msg_2", body: payload, secret });
    expect(new StandardWebhook(secret).verify(payload, { ...single })).toEqual(JSON.parse(payload));
    const rotating = signStandardWebhook({
      id: "msg_3",
      body: payload,
      secret: [otherSecret, secret],
    });
    expect(rotating["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new StandardWebhook(secret).verify(payload, { ...rotating })).toEqual(
      JSON.parse(payload),
    );
    expect(new StandardWebhook(otherSecret).verify(payload, { ...rotating })).toEqual(
      JSON.parse(payload),
    );
    expect(() => new StandardWebhook(secret).verify(`${payload} `, { ...single })).toThrow(
      "No matching signature found",
    );
  });
});

describe("svix", () => {
  it("its signatures, under svix-* header names, verify with ours", () => {
    const timestamp = nowSeconds();
    const signature = new SvixWebhook(secret).sign("msg_svix", new Date(timestamp * 1000), payload);
    const headers = {
      "svix-id": "msg_svix",
      "svix-timestamp": String(timestamp),
      "svix-signature": signature,
    };
    expect(standardWebhookVerifier({ secret })({ headers, body: Buffer.from(payload) })).toEqual({
      ok: true,
      value: { eventId: "msg_svix", timestamp },
    });
  });

  it("ours verify with it", () => {
    const headers = signStandardWebhook({ id: "msg_4", body: payload, secret });
    expect(new SvixWebhook(secret).verify(payload, { ...headers })).toEqual(JSON.parse(payload));
  });
});

describe("stripe", () => {
  const stripe = new Stripe("sk_test_unused");
  const stripeSecret = "whsec_test_secret";

  it("generateTestHeaderString headers verify with ours", () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: stripeSecret });
    const verify = timestampedSignatureVerifier({ secret: stripeSecret, toleranceSeconds: 300 });
    const result = verify({ headers: { "stripe-signature": header }, body: payload });
    expect(result.ok).toBe(true);
    const wrongSecret = timestampedSignatureVerifier({
      secret: "whsec_other",
      toleranceSeconds: 300,
    });
    expect(wrongSecret({ headers: { "stripe-signature": header }, body: payload })).toEqual({
      ok: false,
      reason: "signature-mismatch",
    });
  });

  it("a header made with our signBody over `{t}.{body}` passes constructEvent", () => {
    const timestamp = nowSeconds();
    const header = `t=${timestamp},v1=${signBody(`${timestamp}.${payload}`, stripeSecret)}`;
    const event = stripe.webhooks.constructEvent(payload, header, stripeSecret);
    expect(event.id).toBe("evt_42");
    expect(() => stripe.webhooks.constructEvent(`${payload} `, header, stripeSecret)).toThrow(
      /No signatures found matching/,
    );
  });
});

describe("@octokit/webhooks-methods", () => {
  const githubSecret = "It's a Secret to Everybody";

  it("its signatures verify with ours", async () => {
    const header = await octokitSign(githubSecret, payload);
    const verify = githubSignatureVerifier({ secret: githubSecret });
    expect(verify({ headers: { "x-hub-signature-256": header }, body: payload })).toEqual({
      ok: true,
      value: {},
    });
    expect(verify({ headers: { "x-hub-signature-256": header }, body: `${payload}\n` })).toEqual({
      ok: false,
      reason: "signature-mismatch",
    });
  });

  it("ours verify with it", async () => {
    const header = `sha256=${signBody(payload, githubSecret)}`;
    expect(await octokitVerify(githubSecret, payload, header)).toBe(true);
    expect(await octokitVerify("another secret", payload, header)).toBe(false);
  });
});
