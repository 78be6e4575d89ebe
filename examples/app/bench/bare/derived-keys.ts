import { hkdfSync } from "node:crypto";

// The app derives each key from SECRET_KEY_BASE with HKDF-SHA256 under this salt and a label
// per use (@tessera/crypto's deriveKey); the bare server derives the same two at start.
const DERIVATION_SALT = "tessera key derivation v1";

/** The keys the bare server needs: the JWT's HMAC key and the session cookie's AES key. */
export interface DerivedKeys {
  readonly jwt: Buffer;
  readonly sessionCookie: Buffer;
}

/** Derives the app's JWT and session cookie keys from `secretKeyBase`. */
export function deriveKeys(secretKeyBase: string): DerivedKeys {
  const derive = (label: string) =>
    Buffer.from(hkdfSync("sha256", secretKeyBase, DERIVATION_SALT, label, 32));
  return { jwt: derive("tessera jwt hs256"), sessionCookie: derive("tessera session cookie") };
}
