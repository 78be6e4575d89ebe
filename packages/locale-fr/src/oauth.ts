import type { MessageCatalog } from "@tessera/core";
import type { OAuthMessageId } from "@tessera/oauth";

/** `@tessera/oauth`'s messages in French: the provider buttons and the callback's alerts. */
export const frenchOAuth: MessageCatalog = {
  "oauth.state_invalid":
    "Cette tentative de connexion n'est pas valide ou a expiré. Veuillez réessayer.",
  "oauth.password_removed":
    "Votre adresse e-mail est maintenant confirmée. Le mot de passe choisi avant cette confirmation ne fonctionne plus : utilisez « Mot de passe oublié ? » pour en choisir un nouveau.",
  "oauth.cancelled": "La connexion avec {provider} a été annulée.",
  "oauth.provider_error": "{provider} n'a pas pu vous connecter. Veuillez réessayer.",
  "oauth.missing_code": "{provider} n'a pas envoyé de code de connexion. Veuillez réessayer.",
  "oauth.failed": "La connexion avec {provider} a échoué. Veuillez réessayer.",
  "oauth.email_missing":
    "{provider} n'a pas communiqué votre adresse e-mail : vous ne pouvez donc pas vous connecter avec ce service.",
  "oauth.email_unverified":
    "Votre adresse e-mail {provider} n'est pas vérifiée : elle ne peut donc pas servir à vous connecter. Vérifiez-la sur {provider}, puis réessayez.",
  "oauth.continue_with": "Continuer avec {provider}",
} satisfies Record<OAuthMessageId, string>;
