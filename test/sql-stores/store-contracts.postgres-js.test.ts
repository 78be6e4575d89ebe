import { describeSqlStoreContracts } from "./store-contracts.js";

describeSqlStoreContracts("PostgreSQL (postgres.js)");
