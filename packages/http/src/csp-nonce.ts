// The URL-safe base64 alphabet: 64 characters, so that each takes 6 bits of a random byte.
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const NONCE_LENGTH = 43;

/**
 * A fresh Content-Security-Policy nonce for {@link withPageHeaders}: 43 characters of URL-safe
 * base64, each 6 random bits from the platform's secure generator (258 bits), unguessable and
 * for one answer only (a nonce used twice lets a script injected into the second page run).
 */
export function newCspNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(NONCE_LENGTH));
  let nonce = "";
  // 256 is a multiple of 64: the low 6 bits of a uniform byte are uniform.
  for (const byte of bytes) nonce += ALPHABET[byte & 63];
  return nonce;
}
