import { describeSqlStoreContracts } from "./store-contracts.js";

describeSqlStoreContracts("PGlite");
