// The test kit of @tessera/bearer (`@tessera/bearer/testing`): the memory stores and the
// contracts the API key, signing key and refresh token stores owe. It imports vitest (an
// optional peer): load it from test files only, never from an app.

export { MemorySigningKeyStore } from "./keys/memory-signing-key-store.js";
export { MemoryApiKeyStore } from "./memory-api-key-store.js";
export { MemoryRefreshTokenStore } from "./refresh/memory-refresh-token-store.js";
export {
  type ApiKeyStoreUnderTest,
  describeApiKeyStoreContract,
} from "./testing/api-key-store-contract.js";
export {
  describeRefreshTokenStoreContract,
  type RefreshTokenStoreUnderTest,
} from "./testing/refresh-token-store-contract.js";
export { describeSigningKeyStoreContract } from "./testing/signing-key-store-contract.js";
