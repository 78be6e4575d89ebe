import {
  deriveKeyRing,
  encodeBase64,
  type KeyRing,
  openPayload,
  randomBytes,
  type SecretKeyBase,
  sealPayload,
} from "@tessera/crypto";

/**
 * The keys that encrypt endpoint secrets at rest, derived from the app's secret key base under
 * their own label. Pass them to {@link OutboundWebhooks} and to the sender.
 */
export function outboundSecretKeys(secretKeyBase: SecretKeyBase): KeyRing {
  return deriveKeyRing(secretKeyBase, "tessera outbound webhook secret");
}

/** A new Standard Webhooks secret: `whsec_` and 24 random bytes in base64, as svix makes them. */
export function newEndpointSecret(): string {
  return `whsec_${encodeBase64(randomBytes(24))}`;
}

// The endpoint's id is authenticated with the secret: a sealed secret copied onto another
// endpoint's row does not open there.
const context = (endpointId: string) => `outbound-endpoint:${endpointId}`;

/** Encrypts an endpoint's secret (AES-256-GCM) for storage. */
export function sealEndpointSecret(
  keys: KeyRing,
  endpointId: string,
  secret: string,
): Promise<string> {
  return sealPayload(keys.current, secret, context(endpointId));
}

/**
 * An endpoint's secret from its stored form.
 * @throws {Error} when it does not open: the key base changed without its previous value, or
 * the row was tampered with; a delivery cannot be signed then.
 */
export async function openEndpointSecret(
  keys: KeyRing,
  endpointId: string,
  sealed: string,
): Promise<string> {
  const opened = await openPayload(keys, sealed, context(endpointId));
  if (!opened.ok) {
    throw new Error(`the secret of endpoint ${endpointId} does not open (${opened.reason})`);
  }
  return new TextDecoder().decode(opened.value);
}
