import { fail } from "@tessera/core";
import { hmacSha256 } from "@tessera/crypto";
import { readHeader, signedBody } from "./delivery.js";
import { decodeBase64Digest, decodeHexDigest, matchesAny } from "./digest-encoding.js";
import { textSecretKey } from "./text-secret.js";
import { VERIFIED, type WebhookVerifier } from "./verifier.js";

/** Options of {@link signatureHeaderVerifier}. */
export interface SignatureHeaderVerifierOptions {
  /** The endpoint's shared secret (`<NAME>_WEBHOOK_SECRET`), used as-is. */
  readonly secret: string | Uint8Array;
  /** The header to read, any case (default `X-Signature`). */
  readonly header?: string | undefined;
}

/**
 * The default scheme: HMAC-SHA256 of the raw body in `X-Signature`, written as hex (either
 * case), `sha256=<hex>`, or base64 (standard or URL-safe, padded or not). No timestamp is
 * signed, so a captured delivery can be replayed: the event log makes a replay a duplicate.
 * @throws {RangeError} at creation for an unusable secret.
 */
export function signatureHeaderVerifier(options: SignatureHeaderVerifierOptions): WebhookVerifier {
  const key = textSecretKey(options.secret);
  const header = (options.header ?? "x-signature").toLowerCase();
  return (delivery) => {
    const value = readHeader(delivery.headers, header);
    if (!value) return fail("missing-header");
    const signature = value.startsWith("sha256=")
      ? decodeHexDigest(value.slice("sha256=".length))
      : (decodeHexDigest(value) ?? decodeBase64Digest(value, true));
    if (!signature) return fail("malformed-header");
    const expected = hmacSha256(key, signedBody(delivery.body));
    return matchesAny(expected, [signature]) ? VERIFIED : fail("signature-mismatch");
  };
}
