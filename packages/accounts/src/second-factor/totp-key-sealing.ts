import {
  deriveKeyRing,
  type KeyRing,
  openPayload,
  type SecretKeyBase,
  sealPayload,
} from "@tessera/crypto";

/**
 * The keys that encrypt TOTP keys at rest, derived from the secret key base under their own
 * label: a copy of the database alone does not give anyone a user's codes.
 */
export function totpSealingKeys(secretKeyBase: SecretKeyBase): KeyRing {
  return deriveKeyRing(secretKeyBase, "tessera totp key");
}

// The user's id is authenticated with the key: a sealed key copied onto another user's row is
// refused rather than giving that user someone else's codes.
const context = (userId: number) => `totp:${userId}`;

/** Encrypts a user's TOTP key (AES-256-GCM) for storage. */
export function sealTotpKey(keys: KeyRing, userId: number, key: Uint8Array): Promise<string> {
  return sealPayload(keys.current, key, context(userId));
}

/** The user's TOTP key from its stored form; undefined when it does not open (tampered, moved). */
export async function openTotpKey(
  keys: KeyRing,
  userId: number,
  sealed: string,
): Promise<Uint8Array | undefined> {
  const opened = await openPayload(keys, sealed, context(userId));
  return opened.ok ? opened.value : undefined;
}
