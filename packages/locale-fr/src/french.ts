import type { MessageCatalog } from "@tessera/core";
import { frenchAccounts } from "./accounts.js";
import { frenchHttp } from "./http.js";
import { frenchOAuth } from "./oauth.js";
import { frenchOrganizations } from "./organizations.js";
import { frenchOutbound } from "./outbound.js";
import { frenchRecords } from "./records.js";
import { frenchSession } from "./session.js";
import { frenchValidation } from "./validation.js";

/**
 * Every Tessera package's messages in French, in one catalog: pass it as the `fr` catalog of
 * `localeNegotiation` and `localeChooser` (`@tessera/http`). Ids are namespaced by package, so
 * the catalogs join without clashing; an app adds its own ids to the same object.
 *
 * @example
 * ```ts
 * import { localeNegotiation } from "@tessera/http";
 * import { french } from "@tessera/locale-fr";
 *
 * const inTheirLanguage = localeNegotiation({ catalogs: { fr: french } });
 * ```
 */
export const french: MessageCatalog = {
  ...frenchValidation,
  ...frenchHttp,
  ...frenchRecords,
  ...frenchAccounts,
  ...frenchSession,
  ...frenchOAuth,
  ...frenchOutbound,
  ...frenchOrganizations,
};
