import { createHmac } from "node:crypto";
import { deriveKey, encodeBase64url, utf8 } from "@tessera/crypto";
import { JWT_KEY_LABEL } from "../src/jwt.js";

/** The secret the tests sign with (any text of 32+ characters). */
export const SECRET = "test secret key base, long enough to derive keys";
/** The secret before a rotation. */
export const OLD_SECRET = "the previous secret key base, also long enough";

/** The HS256 key the issuer derives from {@link SECRET}. */
export const jwtKey = deriveKey(SECRET, JWT_KEY_LABEL);

/** Base64url of a value's JSON, or of the text itself when given a string. */
export function segment(value: unknown): string {
  return encodeBase64url(utf8(typeof value === "string" ? value : JSON.stringify(value)));
}

/**
 * A compact JWS built without jose, so tests can make tokens jose would refuse to make:
 * any header, any payload, an HMAC under any hash, or no signature at all.
 */
export function handMadeJwt(
  header: unknown,
  payload: unknown,
  signing: { key: Uint8Array; hash: "sha256" | "sha384" | "sha512" } | "unsigned" = {
    key: jwtKey,
    hash: "sha256",
  },
): string {
  const signingInput = `${segment(header)}.${segment(payload)}`;
  if (signing === "unsigned") return `${signingInput}.`;
  const mac = createHmac(signing.hash, signing.key).update(signingInput).digest();
  return `${signingInput}.${encodeBase64url(new Uint8Array(mac))}`;
}
