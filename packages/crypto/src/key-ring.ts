import { deriveKey, SECRET_KEY_BASE_UNSET } from "./key-derivation.js";

/** The secrets a deployment holds: `SECRET_KEY_BASE` and, after a rotation, the previous one. */
export interface SecretKeyBase {
  readonly current: string;
  readonly previous?: string | undefined;
}

/**
 * Keys for one purpose: `current` signs or encrypts; `all` (current first, then previous)
 * verifies or decrypts, so tokens and cookies made before a rotation keep working.
 */
export interface KeyRing {
  readonly current: Uint8Array;
  readonly all: readonly Uint8Array[];
}

/**
 * Derives the key ring for one purpose (`label`) from the current and previous secrets.
 * @throws {TypeError} when `secrets` is missing (an unset `SECRET_KEY_BASE`), as `deriveKey` does.
 */
export function deriveKeyRing(secrets: SecretKeyBase, label: string, length = 32): KeyRing {
  if (typeof secrets !== "object" || secrets === null) throw new TypeError(SECRET_KEY_BASE_UNSET);
  const current = deriveKey(secrets.current, label, length);
  const previous = secrets.previous ? [deriveKey(secrets.previous, label, length)] : [];
  return { current, all: [current, ...previous] };
}
