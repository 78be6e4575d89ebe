import type { MessageCatalog } from "@tessera/core";
import { frenchAccounts } from "./fr/accounts.js";
import { frenchHttp } from "./fr/http.js";
import { frenchOAuth } from "./fr/oauth.js";
import { frenchSession } from "./fr/session.js";
import { frenchValidation } from "./fr/validation.js";

/** Every message the example app shows, in French: one file per package under `fr/`. */
export const french: MessageCatalog = {
  ...frenchHttp,
  ...frenchValidation,
  ...frenchAccounts,
  ...frenchSession,
  ...frenchOAuth,
};

/** The languages the example app answers in besides English, by tag. */
export const SHIPPED_CATALOGS: Readonly<Record<string, MessageCatalog>> = { fr: french };
