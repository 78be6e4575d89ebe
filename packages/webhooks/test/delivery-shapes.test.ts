import type { IncomingHttpHeaders } from "node:http";
import { signBody, signStandardWebhook } from "@tessera/signer";
import { describe, expect, it } from "vitest";
import {
  githubSignatureVerifier,
  type HeaderSource,
  signatureHeaderVerifier,
  standardWebhookVerifier,
} from "../src/index.js";

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const body = '{"id":"evt_1","note":"café ✓"}';
const now = 1_700_000_000;
const standardHeaders = signStandardWebhook({ id: "evt_1", timestamp: now, body, secret });
const verifyStandard = standardWebhookVerifier({ secret, clock: () => now * 1000 });

describe("header shapes", () => {
  const shapes: [string, HeaderSource][] = [
    ["WHATWG Headers", new Headers(standardHeaders)],
    ["plain object, lower-case names", { ...standardHeaders }],
    [
      "plain object, mixed-case names",
      {
        "Webhook-Id": standardHeaders["webhook-id"],
        "WEBHOOK-TIMESTAMP": standardHeaders["webhook-timestamp"],
        "webhook-Signature": standardHeaders["webhook-signature"],
      },
    ],
    [
      "Node IncomingHttpHeaders, single-element arrays and undefined values",
      {
        "webhook-id": [standardHeaders["webhook-id"]],
        "webhook-timestamp": standardHeaders["webhook-timestamp"],
        "webhook-signature": standardHeaders["webhook-signature"],
        "x-absent": undefined,
      } satisfies IncomingHttpHeaders,
    ],
    [
      "Svix header names",
      {
        "svix-id": standardHeaders["webhook-id"],
        "svix-timestamp": standardHeaders["webhook-timestamp"],
        "svix-signature": standardHeaders["webhook-signature"],
      },
    ],
  ];

  it.each(shapes)("reads %s", (_name, headers) => {
    expect(verifyStandard({ headers, body })).toEqual({
      ok: true,
      value: { eventId: "evt_1", timestamp: now },
    });
  });

  it("joins a repeated header as Headers does, which no scheme accepts", () => {
    const signature = signBody(body, "orders secret");
    const verify = signatureHeaderVerifier({ secret: "orders secret" });
    const repeated: IncomingHttpHeaders = { "x-signature": [signature, signature] };
    const appended = new Headers();
    appended.append("X-Signature", signature);
    appended.append("X-Signature", signature);
    expect(verify({ headers: repeated, body })).toEqual({ ok: false, reason: "malformed-header" });
    expect(verify({ headers: appended, body })).toEqual({ ok: false, reason: "malformed-header" });
    expect(verify({ headers: { "x-signature": [signature] }, body }).ok).toBe(true);
  });
});

describe("body shapes", () => {
  const bytes = new TextEncoder().encode(body);
  const shapes: [string, string | Uint8Array | ArrayBuffer][] = [
    ["string", body],
    ["Uint8Array", bytes],
    [
      "Uint8Array view into a larger buffer",
      new Uint8Array([0, ...bytes, 0]).subarray(1, bytes.length + 1),
    ],
    ["ArrayBuffer", bytes.slice().buffer],
    ["Node Buffer", Buffer.from(body)],
  ];

  it.each(shapes)("verifies a %s body for every HMAC scheme", (_name, shape) => {
    const hex = signBody(body, "shared secret");
    expect(verifyStandard({ headers: standardHeaders, body: shape }).ok).toBe(true);
    expect(
      signatureHeaderVerifier({ secret: "shared secret" })({
        headers: { "x-signature": hex },
        body: shape,
      }).ok,
    ).toBe(true);
    expect(
      githubSignatureVerifier({ secret: "shared secret" })({
        headers: { "x-hub-signature-256": `sha256=${hex}` },
        body: shape,
      }).ok,
    ).toBe(true);
  });

  it("refuses the same text re-serialized: the raw bytes are what is signed", () => {
    const reserialized = JSON.stringify(JSON.parse(body), null, 1);
    expect(verifyStandard({ headers: standardHeaders, body: reserialized })).toEqual({
      ok: false,
      reason: "signature-mismatch",
    });
  });
});

describe("secrets given as bytes", () => {
  it("uses byte secrets as-is for the text-secret schemes", () => {
    const key = new Uint8Array([0, 255, 7, 128]);
    const hex = signBody(body, key);
    expect(
      signatureHeaderVerifier({ secret: key })({ headers: { "x-signature": hex }, body }).ok,
    ).toBe(true);
    expect(() => signatureHeaderVerifier({ secret: new Uint8Array(0) })).toThrow(RangeError);
  });
});

describe("large and multi-byte bodies", () => {
  // Sizes around the verifiers' 64 KiB encoding buffer: below, at and past it, in ASCII and in
  // characters of two and three UTF-8 bytes.
  const bodies = [
    ["ASCII, 64 KiB − 100", "a".repeat(65_436)],
    ["ASCII, 70 000 characters", "a".repeat(70_000)],
    ["two-byte characters filling the buffer", "é".repeat(32_768)],
    ["three-byte characters past the buffer", "✓".repeat(30_000)],
  ] as const;

  it.each(bodies)("verifies %s as string and as bytes", (_name, text) => {
    const big = `{"id":"evt_big","text":"${text}"}`;
    const bytes = new TextEncoder().encode(big);
    const headers = signStandardWebhook({ id: "evt_big", timestamp: now, body: big, secret });
    const hex = signBody(big, "shared secret");
    const xSignature = signatureHeaderVerifier({ secret: "shared secret" });
    for (const shape of [big, bytes]) {
      expect(verifyStandard({ headers, body: shape }).ok).toBe(true);
      expect(xSignature({ headers: { "x-signature": hex }, body: shape }).ok).toBe(true);
      expect(
        verifyStandard({
          headers,
          body: typeof shape === "string" ? `${shape} ` : bytes.subarray(1),
        }),
      ).toEqual({
        ok: false,
        reason: "signature-mismatch",
      });
    }
  });
});
