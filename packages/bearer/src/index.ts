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
  LAST_USED_WRITE_INTERVAL_MS,
} from "./bearer-authenticator.js";
export { CachedApiKeyStore } from "./cached-api-key-store.js";
export { type CreateApiKeyResult, type CreatedApiKey, createApiKey } from "./create-api-key.js";
export { type CredentialCacheOptions, credentialCache } from "./credential-cache-options.js";
export {
  createJwtIssuer,
  type IssuedJwt,
  JWT_KEY_LABEL,
  JWT_LIFETIME_SECONDS,
  type JwtFailure,
  type JwtIssuer,
  type JwtIssuerOptions,
  type JwtVerifier,
  MAXIMUM_AMR_FACTORS,
  MAXIMUM_JWT_LENGTH,
  type SignInAuthentication,
  VERIFIED_TOKEN_MEMORY_SIZE,
  type VerifiedJwt,
} from "./jwt.js";
export { MemoryApiKeyStore } from "./memory-api-key-store.js";
export { unauthorizedResponse } from "./unauthorized-response.js";
