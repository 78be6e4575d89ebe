import { type Clock, systemClock } from "@tessera/core";
import { decodeStandardWebhookSecret, encodeBase64, hmacSha256 } from "@tessera/crypto";

/**
 * The three headers of a Standard Webhooks delivery, named as the specification spells them.
 * A type literal rather than an interface, so it passes as `HeadersInit` and plain headers.
 */
export type StandardWebhookHeaders = {
  readonly "webhook-id": string;
  readonly "webhook-timestamp": string;
  readonly "webhook-signature": string;
};

/** What {@link signStandardWebhook} signs. */
export interface StandardWebhookMessage {
  /**
   * The message id. Keep it for every retry of the same event: receivers deduplicate on it,
   * which is why it is never generated here.
   */
  readonly id: string;
  /** The exact body that will be sent (a string is signed as UTF-8). */
  readonly body: string | Uint8Array;
  /**
   * One `whsec_` secret, or several while rotating: each gives one `v1,` signature, and a
   * receiver holding any of them accepts the delivery.
   */
  readonly secret: string | readonly string[];
  /** Signing time in seconds since the epoch; defaults to now by `clock`. */
  readonly timestamp?: number | undefined;
  /** Consulted only when `timestamp` is absent (default: the system clock). */
  readonly clock?: Clock | undefined;
}

/**
 * Signs a delivery the Standard Webhooks way: `v1,<base64 HMAC-SHA256>` over
 * `{id}.{timestamp}.{body}` for each secret. Returns the three headers to send with the body.
 * @throws {RangeError} for an empty or malformed secret, an empty id or a non-integer timestamp.
 */
export function signStandardWebhook(message: StandardWebhookMessage): StandardWebhookHeaders {
  if (message.id.length === 0)
    throw new RangeError("a Standard Webhooks message id must not be empty");
  const timestamp = message.timestamp ?? Math.floor((message.clock ?? systemClock)() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError("a Standard Webhooks timestamp must be whole seconds since the epoch");
  }
  const secrets = typeof message.secret === "string" ? [message.secret] : message.secret;
  if (secrets.length === 0) throw new RangeError("at least one Standard Webhooks secret is needed");
  const prefix = `${message.id}.${timestamp}.`;
  const signatures = secrets.map(
    (secret) =>
      `v1,${encodeBase64(hmacSha256(decodeStandardWebhookSecret(secret), prefix, message.body))}`,
  );
  return {
    "webhook-id": message.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
