import { accountMessages } from "@tessera/accounts";
import { type Messages, validationMessages } from "@tessera/core";
import { httpMessages } from "@tessera/http";
import { oauthMessages } from "@tessera/oauth";
import { sessionMessages } from "@tessera/session";

/**
 * The English catalogs of every package whose messages the example app shows: each shipped
 * language covers all of their ids (a test holds it to that).
 */
export const ENGLISH_CATALOGS: readonly Messages<string>[] = [
  httpMessages,
  validationMessages,
  accountMessages,
  sessionMessages,
  oauthMessages,
];
