import { type Locale, localizeFieldMessages } from "@tessera/core";
import {
  HEADER_NAME_DUPLICATE,
  HEADER_NAME_INVALID,
  HEADER_NAME_RESERVED,
  HEADER_VALUE_INVALID,
  TOO_MANY_HEADERS,
} from "../endpoint-headers.js";
import type { FieldErrors } from "../endpoint-input.js";
import { RATE_LIMIT_INVALID } from "../endpoint-rate-limit.js";
import { URL_NOT_ALLOWED } from "../outbound-policy.js";
import { URL_NOT_PLAIN } from "../written-url.js";
import { type OutboundMessageId, outboundMessages } from "./outbound-messages.js";

// The package's own field messages, by the catalog id that translates them; its other messages
// are the shared validation ones, which localizeFieldMessages knows.
const OUTBOUND_FIELD_MESSAGES: Readonly<Record<string, OutboundMessageId>> = {
  [URL_NOT_ALLOWED]: "outbound.url_not_allowed",
  [URL_NOT_PLAIN]: "outbound.url_not_plain",
  [HEADER_NAME_INVALID]: "outbound.header_name_invalid",
  [HEADER_NAME_RESERVED]: "outbound.header_name_reserved",
  [HEADER_NAME_DUPLICATE]: "outbound.header_name_duplicate",
  [HEADER_VALUE_INVALID]: "outbound.header_value_invalid",
  [TOO_MANY_HEADERS]: "outbound.too_many_headers",
  [RATE_LIMIT_INVALID]: "outbound.rate_limit_invalid",
};

/** The package's field names as the JSON API spells them. */
const JSON_FIELD_NAMES: Readonly<Record<string, string>> = { rateLimit: "rate_limit" };

/**
 * An endpoint's field errors from `@tessera/outbound` in `locale`: the JSON routes' 422 and the
 * page's form both show them.
 */
export function endpointFieldMessages(
  fields: FieldErrors,
  locale: Locale | undefined,
): Record<string, string[]> {
  const translated: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(fields)) {
    translated[JSON_FIELD_NAMES[field] ?? field] = messages.map((message) => {
      const id = OUTBOUND_FIELD_MESSAGES[message];
      return id === undefined ? message : outboundMessages.text(locale, id);
    });
  }
  return localizeFieldMessages(translated, locale);
}
