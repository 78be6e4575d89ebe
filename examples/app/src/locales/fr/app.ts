import type { AppMessageId } from "../../app-messages.js";

/** The example app's own texts in French. */
export const frenchApp = {
  "app.brand": "Exemple Tessera",
  "app.title_suffix": "{title} · Exemple Tessera",
  "app.account_navigation": "Compte",
  "app.posts": "Articles",
  "app.comments": "Commentaires",
  "app.labels": "Étiquettes",
  "app.reactions": "Réactions",
  "app.notes": "Notes",
  "app.projects": "Projets",
  "app.log_out": "Se déconnecter",
  "app.log_in": "Se connecter",
  "app.sign_up": "Créer un compte",
  "app.home_title": "Accueil",
  "app.home_heading": "Application d'exemple Tessera",
  "app.home_intro":
    "Tout le service Tessera dans un seul processus sur SQLite : comptes, enregistrements typés, webhooks et tâches externes, servis en pages HTML et en API JSON.",
  "app.home_signed_in_html": 'Vous êtes connecté(e). Voir <a href="/account">votre compte</a>.',
  "app.home_visitor_html":
    '<a href="/signup">Créez un compte</a> ou <a href="/login">connectez-vous</a> pour commencer.',
  "app.error_title": "Une erreur est survenue",
  "app.error_text": "Le serveur n'a pas pu terminer cette requête. Réessayez dans un instant.",
  "app.error_back": "Retour à l'accueil",
} as const satisfies Record<AppMessageId, string>;
