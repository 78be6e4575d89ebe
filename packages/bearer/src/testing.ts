// The test kit of @tessera/bearer (`@tessera/bearer/testing`): the memory key store and the
// contract an API key store owes bearer authentication. It imports vitest (an optional peer):
// load it from test files only, never from an app.

export { MemorySigningKeyStore } from "./keys/memory-signing-key-store.js";
export { MemoryApiKeyStore } from "./memory-api-key-store.js";
export {
  type ApiKeyStoreUnderTest,
  describeApiKeyStoreContract,
} from "./testing/api-key-store-contract.js";
export { describeSigningKeyStoreContract } from "./testing/signing-key-store-contract.js";
