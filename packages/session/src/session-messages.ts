import { defineMessages, type MessageIdOf } from "@tessera/core";

/**
 * The messages `@tessera/session` writes for people, in English: the alerts of the access modes
 * (`requireUser`, `requireConfirmedUser`), flashed in the locale they are given, and the words
 * of a device's label (`browserName`). Browser and system names are names, not translated.
 */
export const sessionMessages = defineMessages({
  "session.login_required": "Please log in to continue.",
  "session.confirmation_required": "Please confirm your email address first.",
  "session.unknown_browser": "Unknown browser",
  "session.browser_on_system": "{browser} on {system}",
});

/** An id of {@link sessionMessages}. */
export type SessionMessageId = MessageIdOf<typeof sessionMessages>;
