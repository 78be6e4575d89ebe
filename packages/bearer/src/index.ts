export { apiKeyJson } from "./api-key-json.js";
export {
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_NAME_MESSAGES,
  type ApiKeyNameCheck,
  checkApiKeyName,
} from "./api-key-name.js";
export type { ApiKeyJson, ApiKeyRecord, ApiKeyStore, NewApiKey } from "./api-key-store.js";
export { type AuthorizationHeaderFailure, readBearerToken } from "./authorization-header.js";
export { bearerAuthentication } from "./bearer-authentication.js";
export {
  type ApiKeyHolder,
  type BearerAuthenticator,
  type BearerAuthenticatorOptions,
  type BearerFailure,
  type BearerIdentity,
  createBearerAuthenticator,
} from "./bearer-authenticator.js";
export { CachedApiKeyStore } from "./cached-api-key-store.js";
export { type CreateApiKeyResult, type CreatedApiKey, createApiKey } from "./create-api-key.js";
export { type CredentialCacheOptions, credentialCache } from "./credential-cache-options.js";
export { JWKS_MAX_AGE_SECONDS, JWKS_PATH, jwksRoute } from "./jwks-route.js";
export {
  ACTING_JWT_LIFETIME_SECONDS,
  type AsymmetricJwtIssuerOptions,
  createJwtIssuer,
  type HmacJwtIssuerOptions,
  type IssuedJwt,
  JWT_KEY_LABEL,
  JWT_LIFETIME_SECONDS,
  type JwtFailure,
  type JwtIssuer,
  type JwtIssuerCommonOptions,
  type JwtIssuerOptions,
  type JwtVerifier,
  MAXIMUM_AMR_FACTORS,
  MAXIMUM_JWT_LENGTH,
  type SignInAuthentication,
  VERIFIED_TOKEN_MEMORY_SIZE,
  type VerifiedJwt,
} from "./jwt.js";
export {
  ASYMMETRIC_JWT_ALGORITHMS,
  type AsymmetricJwtAlgorithm,
  isAsymmetricJwtAlgorithm,
  type JwtAlgorithm,
} from "./jwt-algorithm.js";
export { currentSigningKey, type KeyTimes, verifyingKeys } from "./keys/key-lifetime.js";
export {
  KEY_SET_REFRESH_INTERVAL_MS,
  type KeySet,
  type KeySetOptions,
  keySet,
  rotateSigningKey,
  type SigningKeyInUse,
  UNKNOWN_KID_RELOAD_INTERVAL_MS,
  type VerificationKey,
} from "./keys/key-set.js";
export { MemorySigningKeyStore } from "./keys/memory-signing-key-store.js";
export { type PublicJwk, type PublicJwks, publicJwks } from "./keys/public-jwks.js";
export {
  generateSigningKey,
  type PrivateSigningJwk,
  readPrivateSigningJwk,
} from "./keys/signing-key.js";
export { SIGNING_KEY_SEALING_LABEL } from "./keys/signing-key-sealing.js";
export type {
  NewSigningKey,
  SigningKeyRecord,
  SigningKeyStore,
} from "./keys/signing-key-store.js";
export { LAST_USED_WRITE_INTERVAL_MS, touchWhenStale } from "./last-used.js";
export { MemoryApiKeyStore } from "./memory-api-key-store.js";
export { refreshTokenCleanups } from "./refresh/refresh-token-cleanups.js";
export {
  type FoundRefreshToken,
  MAXIMUM_REFRESH_GRACE_MS,
  MAXIMUM_REFRESH_USER_AGENT_LENGTH,
  type NewRefreshTokenFamily,
  REVOKED_FAMILY_RETENTION_MS,
  type RefreshTokenFamily,
  type RefreshTokenRecord,
  type RefreshTokenStore,
  type RefreshTokenSuccessor,
} from "./refresh/refresh-token-store.js";
export {
  type IssuedRefreshToken,
  REFRESH_GRACE_MS,
  REFRESH_SUCCESSOR_SEALING_LABEL,
  REFRESH_TOKEN_LIFETIME_SECONDS,
  type RefreshFailure,
  type RefreshRotation,
  type RefreshTokenSignIn,
  type RefreshTokens,
  type RefreshTokensOptions,
  type RotatedRefreshToken,
  refreshTokens,
} from "./refresh/refresh-tokens.js";
export { type RemoteJwtVerifierOptions, remoteJwtVerifier } from "./remote-jwt-verifier.js";
export { unauthorizedResponse } from "./unauthorized-response.js";
