import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { describe, expect, it } from "vitest";
import { signBody, signStandardWebhook } from "../src/index.js";
import vectors from "./vectors/signatures.json" with { type: "json" };

describe("signBody (X-Signature)", () => {
  it.each(vectors.xSignature)("signs $body as lowercase hex", ({ secret, body, signature }) => {
    expect(signBody(body, secret)).toBe(signature);
    expect(signBody(new TextEncoder().encode(body), new TextEncoder().encode(secret))).toBe(
      signature,
    );
  });

  it("refuses an empty secret", () => {
    expect(() => signBody("{}", "")).toThrow(RangeError);
    expect(() => signBody("{}", new Uint8Array(0))).toThrow(RangeError);
  });
});

describe("signStandardWebhook", () => {
  it.each(vectors.standardWebhooks)("reproduces the reference signature", (vector) => {
    const headers = signStandardWebhook({
      id: vector.id,
      timestamp: vector.timestamp,
      body: vector.body,
      secret: vector.secret,
    });
    expect(headers).toEqual({
      "webhook-id": vector.id,
      "webhook-timestamp": String(vector.timestamp),
      "webhook-signature": vector.signature,
    });
    const fromBytes = signStandardWebhook({
      id: vector.id,
      timestamp: vector.timestamp,
      body: new TextEncoder().encode(vector.body),
      secret: vector.secret.slice("whsec_".length),
    });
    expect(fromBytes["webhook-signature"]).toBe(vector.signature);
  });

  it("takes the timestamp from the clock when none is given", () => {
    const vector = vectors.standardWebhooks[0]!;
    const headers = signStandardWebhook({
      id: vector.id,
      body: vector.body,
      secret: vector.secret,
      clock: () => vector.timestamp * 1000 + 999,
    });
    expect(headers["webhook-timestamp"]).toBe(String(vector.timestamp));
    expect(headers["webhook-signature"]).toBe(vector.signature);
  });

  it("signs once per secret during a rotation, each verifying with the reference libraries", () => {
    const secrets = [
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "whsec_bmV3IHNlY3JldCBhZnRlciByb3RhdGlvbg==",
    ];
    const body = '{"id":"evt_9","type":"invoice.paid"}';
    const headers = signStandardWebhook({ id: "msg_9", body, secret: secrets });
    const [first, second] = headers["webhook-signature"].split(" ");
    expect(first).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(second).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(first).not.toBe(second);
    for (const secret of secrets) {
      expect(new StandardWebhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
      expect(new SvixWebhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    }
  });

  it("refuses what a receiver could never verify", () => {
    const message = { id: "msg_1", body: "{}", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" };
    expect(() => signStandardWebhook({ ...message, id: "" })).toThrow(RangeError);
    expect(() => signStandardWebhook({ ...message, secret: [] })).toThrow(RangeError);
    expect(() => signStandardWebhook({ ...message, timestamp: 1.5 })).toThrow(RangeError);
    expect(() => signStandardWebhook({ ...message, timestamp: -1 })).toThrow(RangeError);
    expect(() => signStandardWebhook({ ...message, secret: "whsec_not base64" })).toThrow(
      RangeError,
    );
  });
});
