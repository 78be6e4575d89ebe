import { constantTimeEqual, decodeBase64, decodeBase64url, decodeHex } from "@tessera/crypto";

const HMAC_SHA256_LENGTH = 32;

/** A 64-digit hex HMAC-SHA256 (either letter case) as bytes, or undefined. */
export function decodeHexDigest(text: string): Uint8Array | undefined {
  if (text.length !== 2 * HMAC_SHA256_LENGTH) return undefined;
  try {
    return decodeHex(text);
  } catch {
    return undefined;
  }
}

/**
 * A base64 HMAC-SHA256 as bytes, or undefined. `urlSafe` also accepts the URL-safe alphabet;
 * padding is optional either way.
 */
export function decodeBase64Digest(text: string, urlSafe: boolean): Uint8Array | undefined {
  // 32 bytes are 43 base64 characters, 44 with the one padding character.
  if (text.length !== 43 && text.length !== 44) return undefined;
  for (const decode of urlSafe ? [decodeBase64, decodeBase64url] : [decodeBase64]) {
    try {
      const bytes = decode(text);
      if (bytes.length === HMAC_SHA256_LENGTH) return bytes;
    } catch {
      // Not this alphabet; try the next one.
    }
  }
  return undefined;
}

/**
 * True when any candidate equals the expected MAC. Each comparison is constant-time; all are
 * made, so the answer's timing does not say which candidate matched.
 */
export function matchesAny(expected: Uint8Array, candidates: readonly Uint8Array[]): boolean {
  let matched = false;
  for (const candidate of candidates) matched = constantTimeEqual(expected, candidate) || matched;
  return matched;
}
