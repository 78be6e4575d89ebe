import { encodeHex, hmacSha256 } from "@tessera/crypto";
import { signBody, signStandardWebhook } from "@tessera/signer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  githubSignatureVerifier,
  signatureHeaderVerifier,
  standardWebhookVerifier,
  timestampedSignatureVerifier,
  tokenVerifier,
  type VerificationFailure,
  type WebhookVerifier,
} from "../src/index.js";

const standardSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const now = 1_700_000_000;
const clock = () => now * 1000;
const textSecret = fc
  .string({ minLength: 1, maxLength: 40 })
  .filter((secret) => secret.trim() === secret && secret.length > 0);

const verifiers: [string, WebhookVerifier][] = [
  ["X-Signature", signatureHeaderVerifier({ secret: "s3cret" })],
  ["GitHub", githubSignatureVerifier({ secret: "s3cret" })],
  ["Standard Webhooks", standardWebhookVerifier({ secret: standardSecret, clock })],
  ["timestamped", timestampedSignatureVerifier({ secret: "s3cret", clock })],
  ["token", tokenVerifier({ token: "s3cret", header: "x-token", query: "token" })],
];
const failures: readonly VerificationFailure[] = [
  "missing-header",
  "malformed-header",
  "unsupported-version",
  "timestamp-out-of-tolerance",
  "signature-mismatch",
  "missing-token",
  "token-mismatch",
];
const headerNames = fc.constantFrom(
  "x-signature",
  "x-hub-signature-256",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
  "svix-signature",
  "stripe-signature",
  "x-token",
);
const headerValue = fc.oneof(
  fc.string(),
  fc.string().map((text) => `v1,${text}`),
  fc.string().map((text) => `sha256=${text}`),
  fc.string().map((text) => `t=${now},v1=${text}`),
  fc.constant(String(now)),
);
const hostileHeaders = fc.dictionary(headerNames, fc.oneof(headerValue, fc.array(headerValue)));
const body = fc.oneof(fc.string(), fc.uint8Array({ maxLength: 256 }));

describe("verifiers facing hostile input", () => {
  it.each(verifiers)("%s never throws and refuses with a known reason", (_name, verify) => {
    fc.assert(
      fc.property(hostileHeaders, body, fc.option(fc.string()), (headers, payload, url) => {
        const result = verify({ headers, body: payload, url: url ?? undefined });
        expect(result.ok).toBe(false);
        if (!result.ok) expect(failures).toContain(result.reason);
      }),
    );
  });
});

describe("sign then verify", () => {
  it("accepts what the signer signs and refuses any one-byte change of the body", () => {
    fc.assert(
      fc.property(
        textSecret,
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        fc.nat(),
        (secret, bytes, position) => {
          const hex = signBody(bytes, secret);
          const tampered = bytes.slice();
          const index = position % bytes.length;
          tampered[index] = tampered[index]! ^ 1;
          const xSignature = signatureHeaderVerifier({ secret });
          const github = githubSignatureVerifier({ secret });
          expect(xSignature({ headers: { "x-signature": hex }, body: bytes }).ok).toBe(true);
          expect(
            github({ headers: { "x-hub-signature-256": `sha256=${hex}` }, body: bytes }).ok,
          ).toBe(true);
          expect(xSignature({ headers: { "x-signature": hex }, body: tampered })).toEqual({
            ok: false,
            reason: "signature-mismatch",
          });
        },
      ),
    );
  });

  it("Standard Webhooks: accepts exactly the timestamps within 300 s of now", () => {
    const verify = standardWebhookVerifier({ secret: standardSecret, clock });
    fc.assert(
      fc.property(fc.integer({ min: -2000, max: 2000 }), fc.string(), (offset, text) => {
        const headers = signStandardWebhook({
          id: "msg_1",
          timestamp: now + offset,
          body: text,
          secret: standardSecret,
        });
        const result = verify({ headers, body: text });
        if (Math.abs(offset) <= 300)
          expect(result).toEqual({
            ok: true,
            value: { eventId: "msg_1", timestamp: now + offset },
          });
        else expect(result).toEqual({ ok: false, reason: "timestamp-out-of-tolerance" });
      }),
    );
  });

  it("timestamped: accepts a v1 over `{t}.{body}` wherever it sits among other entries", () => {
    const verify = timestampedSignatureVerifier({ secret: "s3cret", clock });
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }).map(encodeHex), { maxLength: 4 }),
        fc.nat(),
        (text, decoys, position) => {
          const valid = encodeHex(hmacSha256("s3cret", `${now}.${text}`));
          const entries = decoys.map((decoy) => `v1=${decoy}`);
          entries.splice(position % (entries.length + 1), 0, `v1=${valid}`);
          const header = [`t=${now}`, ...entries].join(",");
          expect(verify({ headers: { "stripe-signature": header }, body: text }).ok).toBe(true);
        },
      ),
    );
  });
});
