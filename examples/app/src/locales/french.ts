import type { MessageCatalog } from "@tessera/core";
import { frenchHttp } from "./fr/http.js";
import { frenchValidation } from "./fr/validation.js";

/** Every message the example app shows, in French: one file per package under `fr/`. */
export const french: MessageCatalog = {
  ...frenchHttp,
  ...frenchValidation,
};

/** The languages the example app answers in besides English, by tag. */
export const SHIPPED_CATALOGS: Readonly<Record<string, MessageCatalog>> = { fr: french };
