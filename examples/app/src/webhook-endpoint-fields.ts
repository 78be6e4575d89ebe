import { type Locale, localizeFieldMessages } from "@tessera/core";
import { type FieldErrors, URL_NOT_ALLOWED, URL_NOT_PLAIN } from "@tessera/outbound";
import { type OutboundMessageId, outboundMessages } from "./outbound-messages.js";

// The package's own `url` messages, by the catalog id that translates them; its other messages
// are the shared validation ones, which localizeFieldMessages knows.
const OUTBOUND_FIELD_MESSAGES: Readonly<Record<string, OutboundMessageId>> = {
  [URL_NOT_ALLOWED]: "outbound.url_not_allowed",
  [URL_NOT_PLAIN]: "outbound.url_not_plain",
};

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
    translated[field] = messages.map((message) => {
      const id = OUTBOUND_FIELD_MESSAGES[message];
      return id === undefined ? message : outboundMessages.text(locale, id);
    });
  }
  return localizeFieldMessages(translated, locale);
}
