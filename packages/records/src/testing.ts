// The test kit of @tessera/records (`@tessera/records/testing`): the memory record store and
// object storage, and the contract a record store owes the record routes. It imports vitest
// (an optional peer): load it from test files only, never from an app.
export { MemoryRecordStore, MemoryRecordTables } from "./memory-record-store.js";
export { MemoryObjectStorage } from "./memory-storage.js";
export {
  contractModels,
  describeRecordStoreContract,
  type RecordStoresUnderTest,
} from "./testing/record-store-contract.js";
