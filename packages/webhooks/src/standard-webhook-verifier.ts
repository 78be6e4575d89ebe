import { type Clock, fail, ok, systemClock } from "@tessera/core";
import { decodeStandardWebhookSecret, hmacSha256 } from "@tessera/crypto";
import { type HeaderSource, readHeader, signedBody } from "./delivery.js";
import { decodeBase64Digest, matchesAny } from "./digest-encoding.js";
import {
  checkTolerance,
  DEFAULT_TOLERANCE_SECONDS,
  isWithinTolerance,
  parseTimestampSeconds,
} from "./signature-timestamp.js";
import type { VerificationFailure, WebhookVerifier } from "./verifier.js";

/** Options of {@link standardWebhookVerifier}. */
export interface StandardWebhookVerifierOptions {
  /** `whsec_<base64>` (the prefix may be left out, as the reference libraries allow). */
  readonly secret: string;
  /** Largest distance between the signed timestamp and now, either way (default 300 s). */
  readonly toleranceSeconds?: number | undefined;
  /** The time source (default the system clock). */
  readonly clock?: Clock | undefined;
}

/**
 * Standard Webhooks (standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` holding one or more space-separated `v1,<base64>` signatures (several
 * during a secret rotation; other versions are ignored) over `{id}.{timestamp}.{body}`. Svix's
 * `svix-*` header names are read when the `webhook-*` ones are absent. On success the result
 * carries `webhook-id` as the event id.
 * @throws {RangeError} at creation for an empty or malformed secret or a negative tolerance.
 */
export function standardWebhookVerifier(options: StandardWebhookVerifierOptions): WebhookVerifier {
  const key = decodeStandardWebhookSecret(options.secret);
  const tolerance = checkTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
  const clock = options.clock ?? systemClock;
  return (delivery) => {
    const id = standardHeader(delivery.headers, "id");
    const timestampText = standardHeader(delivery.headers, "timestamp");
    const signatureText = standardHeader(delivery.headers, "signature");
    if (!id || !timestampText || !signatureText) return fail("missing-header");
    const timestamp = parseTimestampSeconds(timestampText);
    if (timestamp === undefined) return fail("malformed-header");
    const signatures = parseSignatures(signatureText);
    if (!Array.isArray(signatures)) return fail(signatures);
    if (!isWithinTolerance(timestamp, clock, tolerance)) return fail("timestamp-out-of-tolerance");
    const expected = hmacSha256(key, `${id}.${timestampText}.`, signedBody(delivery.body));
    return matchesAny(expected, signatures)
      ? ok({ eventId: id, timestamp })
      : fail("signature-mismatch");
  };
}

function standardHeader(headers: HeaderSource, name: string): string | undefined {
  return readHeader(headers, `webhook-${name}`) || readHeader(headers, `svix-${name}`);
}

/**
 * The decodable `v1` signatures of a `webhook-signature` value. A `v1` entry that is not
 * base64 of 32 bytes (a truncated or garbled signature) simply matches nothing.
 */
function parseSignatures(text: string): Uint8Array[] | VerificationFailure {
  const signatures: Uint8Array[] = [];
  let versionedEntries = 0;
  for (const entry of text.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma <= 0) continue;
    versionedEntries++;
    if (entry.slice(0, comma) !== "v1") continue;
    signatures.push(decodeBase64Digest(entry.slice(comma + 1), false) ?? new Uint8Array(0));
  }
  if (signatures.length > 0) return signatures;
  return versionedEntries > 0 ? "unsupported-version" : "malformed-header";
}
