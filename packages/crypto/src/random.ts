import { encodeBase64url } from "./base64.js";

/** `length` bytes from the platform's cryptographically secure generator. */
export function randomBytes(length: number): Uint8Array {
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
