import type { MessageCatalog } from "@tessera/core";
import type { SessionMessageId } from "@tessera/session";

/**
 * `@tessera/session`'s messages in French: the alerts of pages that need a signed-in user, and
 * the words of a device's label (`Firefox 128 sur Linux`).
 */
export const frenchSession: MessageCatalog = {
  "session.login_required": "Veuillez vous connecter pour continuer.",
  "session.confirmation_required": "Veuillez d'abord confirmer votre adresse e-mail.",
  "session.unknown_browser": "Navigateur inconnu",
  "session.browser_on_system": "{browser} sur {system}",
} satisfies Record<SessionMessageId, string>;
