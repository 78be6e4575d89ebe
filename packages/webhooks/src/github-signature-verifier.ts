import { fail } from "@tessera/core";
import { hmacSha256 } from "@tessera/crypto";
import { readHeader, signedBody } from "./delivery.js";
import { decodeHexDigest, matchesAny } from "./digest-encoding.js";
import { textSecretKey } from "./text-secret.js";
import { VERIFIED, type WebhookVerifier } from "./verifier.js";

/** Options of {@link githubSignatureVerifier}. */
export interface GithubSignatureVerifierOptions {
  /** The webhook's secret, used as-is. */
  readonly secret: string | Uint8Array;
  /** The header to read, any case (default `X-Hub-Signature-256`). */
  readonly header?: string | undefined;
}

/**
 * The "plain with prefix" scheme of GitHub and the many senders that copied it:
 * `X-Hub-Signature-256: sha256=<hex>` over the raw body. Hex is accepted in either case.
 * GitHub signs no timestamp; the event log turns a replayed delivery into a duplicate.
 * @throws {RangeError} at creation for an unusable secret.
 */
export function githubSignatureVerifier(options: GithubSignatureVerifierOptions): WebhookVerifier {
  const key = textSecretKey(options.secret);
  const header = (options.header ?? "x-hub-signature-256").toLowerCase();
  return (delivery) => {
    const value = readHeader(delivery.headers, header);
    if (!value) return fail("missing-header");
    const signature = value.startsWith("sha256=")
      ? decodeHexDigest(value.slice("sha256=".length))
      : undefined;
    if (!signature) return fail("malformed-header");
    const expected = hmacSha256(key, signedBody(delivery.body));
    return matchesAny(expected, [signature]) ? VERIFIED : fail("signature-mismatch");
  };
}
