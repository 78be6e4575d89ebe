// The test kit of @tessera/organizations (`@tessera/organizations/testing`): the memory store
// and the contract an organization store owes. The contract imports vitest (an optional peer):
// load this entry from test files only, never from an app.
export {
  type MemberProfile,
  MemoryOrganizationStore,
} from "./memory-organization-store.js";
export {
  describeOrganizationStoreContract,
  type OrganizationStoreUnderTest,
} from "./testing/organization-store-contract.js";
