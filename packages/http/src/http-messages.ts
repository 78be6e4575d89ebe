import { defineMessages, type MessageIdOf } from "@tessera/core";

/**
 * The messages `@tessera/http` writes for people, in English (the spec's exact strings): pass
 * `httpMessages.english`'s ids to a translator. Diagnostics for developers (a malformed body, a
 * bad `limit`) and operators (an unknown host) stay English.
 */
export const httpMessages = defineMessages({
  "http.not_found": "Not found",
  "http.unauthenticated": "Unauthorized",
  "http.rate_limited": "Too many requests. Try again later.",
  "http.validation_failed": "Validation failed",
  "http.cross_site_refused":
    "Cross-site request refused: add this origin to ALLOWED_ORIGINS to allow it.",
  "http.request_refused": "Request refused",
  "http.impersonating": "You are acting as {email}, as an administrator.",
  "http.stop_impersonating": "Stop acting as this user",
});

/** An id of {@link httpMessages}. */
export type HttpMessageId = MessageIdOf<typeof httpMessages>;
