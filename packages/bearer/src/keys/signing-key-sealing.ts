import {
  deriveKeyRing,
  type KeyRing,
  openPayload,
  type SecretKeyBase,
  sealPayload,
} from "@tessera/crypto";
import { type PrivateSigningJwk, readPrivateSigningJwk } from "./signing-key.js";

/** The label the keys that seal private signing keys are derived under from `SECRET_KEY_BASE`. */
export const SIGNING_KEY_SEALING_LABEL = "tessera jwt signing key";

/**
 * The keys that encrypt private signing keys at rest: a copy of the database alone signs no
 * token. `SECRET_KEY_BASE_PREVIOUS` keeps opening keys sealed before a rotation of the secret.
 */
export function signingKeySealingKeys(secrets: SecretKeyBase): KeyRing {
  return deriveKeyRing(secrets, SIGNING_KEY_SEALING_LABEL);
}

// The kid is authenticated with the key: a sealed key copied onto another row is refused.
const context = (kid: string) => `jwt-signing-key:${kid}`;

/** The private JWK sealed (AES-256-GCM) for storage. */
export function sealSigningKey(keys: KeyRing, jwk: PrivateSigningJwk): Promise<string> {
  return sealPayload(keys.current, JSON.stringify(jwk), context(jwk.kid));
}

/**
 * The private JWK of a stored row.
 * @throws {Error} when it does not open under the secret key base (changed without
 * `SECRET_KEY_BASE_PREVIOUS`, or the row was tampered with): no token could be signed.
 */
export async function openSigningKey(
  keys: KeyRing,
  kid: string,
  sealed: string,
): Promise<PrivateSigningJwk> {
  const opened = await openPayload(keys, sealed, context(kid));
  if (!opened.ok) {
    throw new Error(
      `signing key ${kid} does not open (${opened.reason}): was SECRET_KEY_BASE changed without SECRET_KEY_BASE_PREVIOUS?`,
    );
  }
  const jwk = readPrivateSigningJwk(JSON.parse(new TextDecoder().decode(opened.value)));
  if (jwk.kid !== kid) throw new Error(`signing key ${kid} holds another kid`);
  return jwk;
}
