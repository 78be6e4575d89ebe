import { type Clock, fail, ok, systemClock } from "@tessera/core";
import { hmacSha256 } from "@tessera/crypto";
import { readHeader, signedBody } from "./delivery.js";
import { decodeHexDigest, matchesAny } from "./digest-encoding.js";
import {
  checkTolerance,
  DEFAULT_TOLERANCE_SECONDS,
  isWithinTolerance,
  parseTimestampSeconds,
} from "./signature-timestamp.js";
import { textSecretKey } from "./text-secret.js";
import type { VerificationFailure, WebhookVerifier } from "./verifier.js";

/** Options of {@link timestampedSignatureVerifier}. */
export interface TimestampedSignatureVerifierOptions {
  /** The endpoint's signing secret, used as-is (Stripe's `whsec_...` is not base64-decoded). */
  readonly secret: string | Uint8Array;
  /** The header to read, any case (default `Stripe-Signature`). */
  readonly header?: string | undefined;
  /**
   * Largest distance between `t` and now, either way (default 300 s, Stripe's default);
   * `Infinity` turns the check off.
   */
  readonly toleranceSeconds?: number | undefined;
  /** The time source (default the system clock). */
  readonly clock?: Clock | undefined;
}

/**
 * The timestamped scheme of Stripe: `t=<ts>,v1=<hex>` in one header, HMAC-SHA256 over
 * `{t}.{body}`. Several `v1` entries are allowed (secret rotation); other schemes (`v0`) are
 * ignored.
 * @throws {RangeError} at creation for an unusable secret or a negative tolerance.
 */
export function timestampedSignatureVerifier(
  options: TimestampedSignatureVerifierOptions,
): WebhookVerifier {
  const key = textSecretKey(options.secret);
  const header = (options.header ?? "stripe-signature").toLowerCase();
  const tolerance = checkTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
  const clock = options.clock ?? systemClock;
  return (delivery) => {
    const value = readHeader(delivery.headers, header);
    if (!value) return fail("missing-header");
    const parsed = parseHeader(value);
    if ("failure" in parsed) return fail(parsed.failure);
    if (!isWithinTolerance(parsed.timestamp, clock, tolerance)) {
      return fail("timestamp-out-of-tolerance");
    }
    const expected = hmacSha256(key, `${parsed.timestampText}.`, signedBody(delivery.body));
    return matchesAny(expected, parsed.signatures)
      ? ok({ timestamp: parsed.timestamp })
      : fail("signature-mismatch");
  };
}

type ParsedHeader =
  | { timestamp: number; timestampText: string; signatures: Uint8Array[] }
  | { failure: VerificationFailure };

function parseHeader(value: string): ParsedHeader {
  let timestampText: string | undefined;
  let timestampCount = 0;
  let otherSchemes = 0;
  const signatures: Uint8Array[] = [];
  for (const item of value.split(",")) {
    const equals = item.indexOf("=");
    const name = item.slice(0, Math.max(equals, 0));
    const text = item.slice(equals + 1);
    if (name === "t") {
      timestampText = text;
      timestampCount++;
    } else if (name === "v1") {
      signatures.push(decodeHexDigest(text) ?? new Uint8Array(0));
    } else if (/^v[0-9]+$/.test(name)) {
      otherSchemes++;
    }
  }
  const timestamp = timestampText === undefined ? undefined : parseTimestampSeconds(timestampText);
  if (timestampText === undefined || timestamp === undefined || timestampCount > 1) {
    return { failure: "malformed-header" };
  }
  if (signatures.length === 0) {
    return { failure: otherSchemes > 0 ? "unsupported-version" : "malformed-header" };
  }
  return { timestamp, timestampText, signatures };
}
