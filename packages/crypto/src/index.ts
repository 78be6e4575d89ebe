export { type AeadBackend, aeadBackend, webCryptoAead } from "./aead-backend.js";
export { type OpenFailure, openPayload, sealPayload } from "./authenticated-encryption.js";
export { decodeBase64, decodeBase64url, encodeBase64, encodeBase64url } from "./base64.js";
export { constantTimeEqual, constantTimeEqualText } from "./constant-time.js";
export {
  type DigestBackend,
  digestBackend,
  type HashInput,
  nobleBackend,
} from "./digest-backend.js";
export { EncodingError } from "./encoding-error.js";
export { hmacSha256, sha256, sha256Hex } from "./hash.js";
export { decodeHex, encodeHex } from "./hex.js";
export { deriveKey, MINIMUM_SECRET_LENGTH, SECRET_KEY_BASE_UNSET } from "./key-derivation.js";
export { deriveKeyRing, type KeyRing, type SecretKeyBase } from "./key-ring.js";
export { randomBytes, randomToken } from "./random.js";
export { decodeStandardWebhookSecret } from "./standard-webhook-secret.js";
export { toBytes, utf8 } from "./utf8.js";
