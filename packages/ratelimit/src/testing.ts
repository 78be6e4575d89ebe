// The test kit of @tessera/ratelimit (`@tessera/ratelimit/testing`): the memory counter store,
// the contract a rate-limit store owes the limiter, and a wait for room in a fixed window. It
// imports vitest (an optional peer): load it from test files only, never from an app.
export { MemoryRateLimitStore } from "./memory-store.js";
export { describeRateLimitStoreContract } from "./testing/rate-limit-store-contract.js";
export { awaitWindowRoom } from "./testing/window-room.js";
