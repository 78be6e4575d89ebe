// The test kit of @tessera/webhooks (`@tessera/webhooks/testing`): the memory event store and
// the contract an event store owes the processor. It imports vitest (an optional peer): load it
// from test files only, never from an app.
export { MemoryWebhookEventStore } from "./memory-event-store.js";
export { describeWebhookEventStoreContract } from "./testing/webhook-event-store-contract.js";
