import { describeSqlStoreContracts } from "./store-contracts.js";

describeSqlStoreContracts("D1");
