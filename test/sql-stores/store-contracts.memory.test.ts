import { describeMemoryStoreContracts } from "./store-contracts.js";

describeMemoryStoreContracts();
