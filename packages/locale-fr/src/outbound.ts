import type { MessageCatalog } from "@tessera/core";
import type { OutboundMessageId } from "@tessera/outbound/routes";

/** `@tessera/outbound/routes`' messages in French: the webhook endpoint pages and API answers. */
export const frenchOutbound: MessageCatalog = {
  "outbound.body_not_object": "Le corps doit être un objet JSON.",
  "outbound.unknown_field": "Champ inconnu : {field}.",
  "outbound.not_a_string": "{field} doit être une chaîne de caractères.",
  "outbound.not_a_boolean": "{field} doit valoir true ou false.",
  "outbound.events_not_list": "events doit être une liste de noms d'événements.",
  "outbound.headers_not_object":
    "headers doit être un objet qui associe des noms d'en-têtes à des valeurs textuelles.",
  "outbound.not_a_number": "{field} doit être un nombre ou null.",
  "outbound.header_name_invalid":
    "contient un nom qui n'est pas fait de 1 à 64 lettres, chiffres ou ! # $ % & ' * + - . ^ _ ` | ~",
  "outbound.header_name_reserved": "contient un nom qui ne peut pas être défini",
  "outbound.header_name_duplicate": "contient deux fois le même nom",
  "outbound.header_value_invalid":
    "contient une valeur qui n'est pas faite d'au plus 1 024 caractères ASCII imprimables sans espace autour",
  "outbound.too_many_headers": "contient plus de 10 en-têtes",
  "outbound.rate_limit_invalid":
    "doit être un nombre entier de livraisons par seconde, de 1 à 10 000",
  "outbound.url_not_allowed": "n'est pas autorisée",
  "outbound.url_not_plain":
    "doit s'écrire http(s)://hôte/chemin, sans nom d'utilisateur ni mot de passe",
  "outbound.endpoint_limit_reached":
    "Vous avez {maximum} points d'accès webhook, le maximum autorisé : supprimez-en un pour en ajouter un autre.",
  "outbound.unknown_event": "n'est pas un événement que cette application envoie",
  "outbound.nul_character": "{field} ne doit pas contenir de caractère NUL.",
  "outbound.message_not_found": "Ce message de webhook n'existe pas.",
  "outbound.page_title": "Webhooks",
  "outbound.page_intro":
    "Chaque point d'accès reçoit les événements qu'il demande ({events}) en requêtes POST signées.",
  "outbound.no_endpoints": "Aucun point d'accès pour l'instant.",
  "outbound.add_heading": "Ajouter un point d'accès",
  "outbound.url_label": "URL",
  "outbound.description_label": "Description",
  "outbound.events_label": "Événements (aucun coché : tous)",
  "outbound.add_button": "Ajouter le point d'accès",
  "outbound.enabled": "Activé",
  "outbound.disabled": "Désactivé",
  "outbound.enable_button": "Activer",
  "outbound.disable_button": "Désactiver",
  "outbound.rotate_button": "Changer le secret",
  "outbound.remove_button": "Supprimer",
  "outbound.replay_button": "Renvoyer",
  "outbound.all_events": "tous les événements",
  "outbound.custom_headers": "en-têtes personnalisés : {names}",
  "outbound.rate_limit": "au plus {rate} livraisons par seconde",
  "outbound.success_rate": "{rate} des {count} tentatives ont réussi ces dernières 24 heures",
  "outbound.no_attempts_24h": "Aucune tentative ces dernières 24 heures",
  "outbound.chart_label": "Tentatives par heure ces dernières 24 heures : réussies et échouées",
  "outbound.attempts_heading": "Tentatives récentes",
  "outbound.no_attempts": "Aucune tentative pour l'instant.",
  "outbound.column_time": "Heure",
  "outbound.column_event": "Événement",
  "outbound.column_attempt": "Tentative",
  "outbound.column_status": "État",
  "outbound.column_answer": "Réponse",
  "outbound.status_succeeded": "réussie",
  "outbound.status_failed": "échouée",
  "outbound.secret_shown_once":
    "Le secret de signature du point d'accès, affiché cette seule fois : {secret}",
  "outbound.added": "Le point d'accès est ajouté.",
  "outbound.updated": "Le point d'accès est modifié.",
  "outbound.removed": "Le point d'accès est supprimé.",
  "outbound.replayed": "Le message est renvoyé.",
  "outbound.replay_pending":
    "Une livraison de ce message attend encore d'être faite : il n'est pas envoyé une seconde fois.",
  "outbound.not_found": "Ce point d'accès n'existe pas.",
  "outbound.back_to_account": "Retour à votre compte",
  "outbound.account_link": "Webhooks",
  "outbound.disabled_mail_subject": "Votre point d'accès webhook a été désactivé",
  "outbound.disabled_mail_text":
    "Toutes les livraisons vers votre point d'accès webhook {url} échouent depuis 5 jours : il est désactivé et ne reçoit plus rien tant que vous ne l'activez pas de nouveau sur {page}.",
} satisfies Record<OutboundMessageId, string>;
