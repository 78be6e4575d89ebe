import { randomToken, sha256Hex } from "@tessera/crypto";

// What randomToken makes: 32 random bytes as unpadded base64url.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new invitation's token, for its mail only, and the SHA-256 digest the store keeps. */
export function newInvitationToken(): { readonly token: string; readonly digest: string } {
  const token = randomToken();
  return { token, digest: sha256Hex(token) };
}

/** The digest of a token from a path, or undefined when the text cannot be a token. */
export function invitationTokenDigest(text: string): string | undefined {
  return TOKEN_SHAPE.test(text) ? sha256Hex(text) : undefined;
}
