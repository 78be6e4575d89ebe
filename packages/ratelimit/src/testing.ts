// The test kit of @tessera/ratelimit (`@tessera/ratelimit/testing`): the memory stores, the
// contracts a rate-limit store and a failure-streak store owe, and a wait for room in a fixed
// window. It
// imports vitest (an optional peer): load it from test files only, never from an app.
export { MemoryFailureStreakStore } from "./memory-failure-streak-store.js";
export { MemoryRateLimitStore } from "./memory-store.js";
export { describeFailureStreakStoreContract } from "./testing/failure-streak-store-contract.js";
export { describeRateLimitStoreContract } from "./testing/rate-limit-store-contract.js";
export { awaitWindowRoom } from "./testing/window-room.js";
