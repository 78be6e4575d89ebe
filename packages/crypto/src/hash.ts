import { digestBackend, type HashInput } from "./digest-backend.js";
import { toBytes } from "./utf8.js";

/** SHA-256 of bytes or of text as UTF-8 (32 bytes). */
export function sha256(data: HashInput): Uint8Array {
  return digestBackend.sha256(data);
}

/** SHA-256 as lowercase hex: the form in which Tessera stores digests of tokens and keys. */
export function sha256Hex(data: HashInput): string {
  return digestBackend.sha256Hex(data);
}

/**
 * HMAC-SHA256 (RFC 2104) under a key of any length (32 bytes out). Several `parts` are
 * authenticated as if concatenated (`hmacSha256(key, `${t}.`, body)`), without copying them.
 */
export function hmacSha256(key: HashInput, ...parts: HashInput[]): Uint8Array {
  return digestBackend.hmacSha256(toBytes(key), parts);
}
