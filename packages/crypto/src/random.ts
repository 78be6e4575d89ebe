import { encodeBase64url } from "./base64.js";

// Small requests (a nonce, a token) are served from a pool the platform's generator fills 4 KiB
// at a time: each getRandomValues call costs a few microseconds whatever its size, which was a
// quarter of sealing a session cookie. Node pools randomUUID's bytes the same way.
const POOL_SIZE = 4096;
const MAXIMUM_POOLED = 64;
const pool = new Uint8Array(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** `length` bytes from the platform's cryptographically secure generator. */
export function randomBytes(length: number): Uint8Array {
  if (length <= MAXIMUM_POOLED) {
    if (poolOffset + length > POOL_SIZE) {
      globalThis.crypto.getRandomValues(pool);
      poolOffset = 0;
    }
    // A copy: the pool's bytes are handed out once, and the caller may keep or change its own.
    const bytes = pool.slice(poolOffset, poolOffset + length);
    poolOffset += length;
    return bytes;
  }
  const bytes = new Uint8Array(length);
  // getRandomValues fills at most 65536 bytes per call.
  for (let offset = 0; offset < length; offset += 65536) {
    globalThis.crypto.getRandomValues(bytes.subarray(offset, offset + 65536));
  }
  return bytes;
}

/** A 256-bit random token as URL-safe base64 without padding: always 43 characters. */
export function randomToken(): string {
  return encodeBase64url(randomBytes(32));
}
