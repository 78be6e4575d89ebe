import type { SessionMessageId } from "@tessera/session";

/** `@tessera/session`'s messages in French: the alerts of pages that need a signed-in user. */
export const frenchSession = {
  "session.login_required": "Veuillez vous connecter pour continuer.",
  "session.confirmation_required": "Veuillez d'abord confirmer votre adresse e-mail.",
} as const satisfies Record<SessionMessageId, string>;
