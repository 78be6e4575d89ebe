import type { MessageCatalog } from "@tessera/core";
import { french as frenchPackages } from "@tessera/locale-fr";
import { frenchApp } from "./fr/app.js";

/**
 * Every message the example app shows, in French: the packages' from `@tessera/locale-fr`, and
 * the app's own from `fr/app.ts`.
 */
export const french: MessageCatalog = { ...frenchPackages, ...frenchApp };
