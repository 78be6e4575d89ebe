import type { Route } from "@tessera/http";
import type { MaybeSessionContext } from "@tessera/session";
import type { HtmlAccountRoutesOptions } from "../html/html-routes-options.js";
import type { BearerAuthentication } from "../json-routes-options.js";
import type { EmailChangePages } from "./email-change-pages.js";
import type { EmailChangeStore } from "./email-change-store.js";
import { htmlEmailChangeRoutes } from "./html-email-change-routes.js";
import { jsonEmailChangeRoutes } from "./json-email-change-routes.js";

/** What {@link emailChangeRoutes} is built from: the HTML routes' parts, the bearer, the store. */
export interface EmailChangeRoutesOptions extends HtmlAccountRoutesOptions {
  readonly bearer: BearerAuthentication;
  readonly emailChanges: EmailChangeStore;
  readonly emailChangePages: EmailChangePages;
}

/**
 * The JSON and HTML routes of changing the account's address (see `jsonEmailChangeRoutes` and
 * `htmlEmailChangeRoutes`). None without a `mailer`: a change is confirmed by mail.
 */
export function emailChangeRoutes(options: EmailChangeRoutesOptions): Route<MaybeSessionContext>[] {
  const { mailer } = options;
  if (mailer === undefined) return [];
  return [...jsonEmailChangeRoutes({ ...options, mailer }), ...htmlEmailChangeRoutes(options)];
}
