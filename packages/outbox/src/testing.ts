// The test kit of @tessera/outbox (`@tessera/outbox/testing`): the contract an outbox owes its
// runners. It imports vitest (an optional peer): load it from test files only, never from an app.
export { describeOutboxContract, type OutboxUnderTest } from "./testing/outbox-contract.js";
