import { ok, type Result } from "@tessera/core";
import type { WebhookDelivery } from "./delivery.js";

/**
 * Why a delivery was refused. Every one of them is answered 401; the reason is for logs and
 * tests, and is never sent to the caller.
 */
export type VerificationFailure =
  /** A header the scheme needs is absent or empty. */
  | "missing-header"
  /** A header is present but not in the scheme's format. */
  | "malformed-header"
  /** The signature header holds signatures, but none of the version this verifier checks. */
  | "unsupported-version"
  /** The signed timestamp is further from now than the tolerance, in either direction. */
  | "timestamp-out-of-tolerance"
  /** Well-formed, but no signature matches the body under the secret. */
  | "signature-mismatch"
  /** A token verifier found no token in the URL or header it reads. */
  | "missing-token"
  /** A token verifier found a token that is not the expected one. */
  | "token-mismatch";

/** What a verifier learned from a genuine delivery. */
export interface VerifiedWebhook {
  /** The event id the scheme signs (`webhook-id` for Standard Webhooks); absent otherwise. */
  readonly eventId?: string | undefined;
  /** The signed timestamp in seconds, for the schemes that sign one. */
  readonly timestamp?: number | undefined;
}

/** The outcome of a verification: never a throw, whatever the delivery holds. */
export type VerificationResult = Result<VerifiedWebhook, VerificationFailure>;

/**
 * Checks one delivery on its raw bytes, in constant time with respect to the secret. Made by
 * the `*Verifier` factories, which check their secret once and throw there if it is unusable.
 */
export type WebhookVerifier = (delivery: WebhookDelivery) => VerificationResult;

/** The success of schemes that learn nothing beyond authenticity; shared, as it never changes. */
export const VERIFIED: VerificationResult = Object.freeze(ok(Object.freeze({})));
