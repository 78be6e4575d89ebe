import { encodeHex, hmacSha256 } from "@tessera/crypto";

/** The header that carries {@link signBody}'s value on every outbound signed call. */
export const SIGNATURE_HEADER = "X-Signature";

/**
 * Signs a request body for the `X-Signature` header: lowercase hex HMAC-SHA256 of the exact
 * bytes sent (a string is signed as UTF-8), so sign the serialized body, never the object.
 * @throws {RangeError} when the secret is empty.
 */
export function signBody(body: string | Uint8Array, secret: string | Uint8Array): string {
  if (secret.length === 0) throw new RangeError("a webhook signing secret must not be empty");
  return encodeHex(hmacSha256(secret, body));
}
