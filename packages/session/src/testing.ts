// The test kit of @tessera/session (`@tessera/session/testing`): the memory tracked-session
// store and the contract a tracked-session store owes the device list and the session check.
// It imports vitest (an optional peer): load it from test files only, never from an app.

export {
  describeTrackedSessionStoreContract,
  type TrackedSessionStoreUnderTest,
} from "./testing/tracked-session-store-contract.js";
export { MemoryTrackedSessionStore } from "./tracked-session-memory-store.js";
