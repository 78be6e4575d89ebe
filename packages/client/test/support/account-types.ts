import { accountApiDocument } from "./account-document.js";
import { committedTypes } from "./generated-types.js";

/** Where the generated account types are committed. */
export const ACCOUNT_TYPES_FILE = new URL("../../src/account-api.d.ts", import.meta.url);

const HEADER = `// Generated from the OpenAPI document of accountOpenApi() (@tessera/accounts) by
// \`npm run generate:client -w @tessera/client\`: do not edit. test/account-types.test.ts fails
// when it is stale.`;

/** The account types as src/account-api.d.ts should hold them. */
export function accountTypes(): Promise<string> {
  return committedTypes(accountApiDocument(), HEADER);
}
