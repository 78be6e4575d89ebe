import { accountMessages } from "@tessera/accounts";
import { type MessageCatalog, type Messages, validationMessages } from "@tessera/core";
import { httpMessages, localeChooser } from "@tessera/http";
import { oauthMessages } from "@tessera/oauth";
import { organizationMessages } from "@tessera/organizations/routes";
import { outboundMessages } from "@tessera/outbound/routes";
import { recordMessages } from "@tessera/records";
import { sessionMessages } from "@tessera/session";
import { appMessages } from "../app-messages.js";
import { french } from "./french.js";

/**
 * The English catalogs of every package whose messages the example app shows: each shipped
 * language covers all of their ids (a test holds it to that).
 */
export const ENGLISH_CATALOGS: readonly Messages<string>[] = [
  appMessages,
  httpMessages,
  validationMessages,
  recordMessages,
  accountMessages,
  sessionMessages,
  oauthMessages,
  outboundMessages,
  organizationMessages,
];

/** The languages the example app answers in besides English, by tag. */
export const SHIPPED_CATALOGS: Readonly<Record<string, MessageCatalog>> = { fr: french };

/** The language of an answer written outside the routes (home page, 404, 500). */
export const chooseLocale = localeChooser({ catalogs: SHIPPED_CATALOGS });
