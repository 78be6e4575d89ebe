import { decodeBase64 } from "./base64.js";

/** The prefix Standard Webhooks secrets carry; the rest of the secret is base64. */
export const STANDARD_WEBHOOK_SECRET_PREFIX = "whsec_";

/**
 * Decodes a Standard Webhooks secret (`whsec_<base64>`) into its key bytes. The prefix is
 * optional, as in the reference libraries, so a bare base64 secret works too.
 * @throws {RangeError} when the secret is empty or not well-formed base64; a deployment with such
 * a secret is misconfigured, so call this at start-up rather than per request.
 */
export function decodeStandardWebhookSecret(secret: string): Uint8Array {
  const encoded = secret.startsWith(STANDARD_WEBHOOK_SECRET_PREFIX)
    ? secret.slice(STANDARD_WEBHOOK_SECRET_PREFIX.length)
    : secret;
  let key: Uint8Array;
  try {
    key = decodeBase64(encoded);
  } catch {
    throw new RangeError("a Standard Webhooks secret must be whsec_ followed by base64");
  }
  if (key.length === 0) throw new RangeError("a Standard Webhooks secret must not be empty");
  return key;
}
