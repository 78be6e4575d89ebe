// `npm run generate:client -w @tessera/client`: writes src/account-api.d.ts, the types of the
// account routes' document.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ACCOUNT_TYPES_FILE, accountTypes } from "./account-types.js";

writeFileSync(ACCOUNT_TYPES_FILE, await accountTypes());
console.log(`wrote ${fileURLToPath(ACCOUNT_TYPES_FILE)}`);
