import type { MessageCatalog } from "@tessera/core";
import { frenchAccounts } from "./fr/accounts.js";
import { frenchApp } from "./fr/app.js";
import { frenchHttp } from "./fr/http.js";
import { frenchOAuth } from "./fr/oauth.js";
import { frenchOrganizations } from "./fr/organizations.js";
import { frenchOutbound } from "./fr/outbound.js";
import { frenchRecords } from "./fr/records.js";
import { frenchSession } from "./fr/session.js";
import { frenchValidation } from "./fr/validation.js";

/** Every message the example app shows, in French: one file per package under `fr/`. */
export const french: MessageCatalog = {
  ...frenchApp,
  ...frenchHttp,
  ...frenchRecords,
  ...frenchValidation,
  ...frenchAccounts,
  ...frenchSession,
  ...frenchOAuth,
  ...frenchOutbound,
  ...frenchOrganizations,
};
