// The test kit of @tessera/oauth (`@tessera/oauth/testing`): the memory identity store and the
// contract an identity store owes provider sign-in. It imports vitest (an optional peer): load
// it from test files only, never from an app.
export { MemoryIdentityStore } from "./memory-identity-store.js";
export {
  describeIdentityStoreContract,
  type IdentityStoreUnderTest,
} from "./testing/identity-store-contract.js";
