// The test kit of @tessera/jobs (`@tessera/jobs/testing`): the memory job store and the contract
// a job store owes the runner, the sweep and the job routes. It imports vitest (an optional
// peer): load it from test files only, never from an app.
export { MemoryJobStore } from "./memory-job-store.js";
export {
  contractJob,
  describeJobStoreContract,
  type JobStoreUnderTest,
} from "./testing/job-store-contract.js";
