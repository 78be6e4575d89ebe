import type { MessageCatalog } from "@tessera/core";
import type { HttpMessageId } from "@tessera/http";

/** `@tessera/http`'s messages in French. */
export const frenchHttp: MessageCatalog = {
  "http.not_found": "Introuvable",
  "http.impersonating": "Vous agissez à la place de {email}, en tant qu'administrateur.",
  "http.stop_impersonating": "Cesser d'agir à sa place",
  "http.unauthenticated": "Non authentifié",
  "http.rate_limited": "Trop de requêtes. Réessayez plus tard.",
  "http.validation_failed": "La validation a échoué",
  "http.cross_site_refused":
    "Requête d'un autre site refusée : ajoutez cette origine à ALLOWED_ORIGINS pour l'autoriser.",
  "http.request_refused": "Requête refusée",
} satisfies Record<HttpMessageId, string>;
