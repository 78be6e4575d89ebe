import { encodeBase64url, randomBytes } from "@tessera/crypto";

/** 22 URL-safe base64 characters (the JSON Schemas reuse it). */
export const PUBLIC_ID_TEXT = /^[A-Za-z0-9_-]{22}$/;

/** A new public id: 128 random bits as 22 URL-safe base64 characters. */
export function newPublicId(): string {
  return encodeBase64url(randomBytes(16));
}

/** True for text shaped like a public id (22 URL-safe base64 characters). */
export function isPublicId(text: string): boolean {
  return PUBLIC_ID_TEXT.test(text);
}
