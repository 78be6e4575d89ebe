import { digestBackend } from "./digest-backend.js";
import { encodeHex } from "./hex.js";
import { toBytes } from "./utf8.js";

/** SHA-256 of bytes or of text as UTF-8 (32 bytes). */
export function sha256(data: string | Uint8Array): Uint8Array {
  return digestBackend.sha256(toBytes(data));
}

/** SHA-256 as lowercase hex: the form in which Tessera stores digests of tokens and keys. */
export function sha256Hex(data: string | Uint8Array): string {
  return encodeHex(sha256(data));
}

/** HMAC-SHA256 (RFC 2104) of bytes or text (UTF-8) under a key of any length (32 bytes out). */
export function hmacSha256(key: string | Uint8Array, data: string | Uint8Array): Uint8Array {
  return digestBackend.hmacSha256(toBytes(key), toBytes(data));
}
