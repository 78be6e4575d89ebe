import type { AccountMessageId } from "@tessera/accounts";

/** `@tessera/accounts`' messages in French: pages, flashes, JSON answers and the account mails. */
export const frenchAccounts = {
  "accounts.invalid_credentials": "Adresse e-mail ou mot de passe incorrect",
  "accounts.password_incorrect": "Le mot de passe est incorrect.",
  "accounts.not_your_email": "Ce n'est pas votre adresse e-mail.",
  "accounts.mfa_required": "Un second facteur est nécessaire pour se connecter.",
  "accounts.email_code_sent":
    "Si un compte utilise cette adresse, un code de connexion est en route.",
  "accounts.totp_already_enabled":
    "Les codes à deux facteurs sont déjà activés ; désactivez-les d'abord.",
  "accounts.totp_not_pending": "Aucune configuration à deux facteurs n'attend de code.",
  "accounts.totp_not_enabled": "Les codes à deux facteurs ne sont pas activés.",
  "accounts.passkey_invalid":
    "La clé d'accès n'a pas pu être vérifiée. Essayez de l'ajouter à nouveau.",
  "accounts.no_passkey": "Ce compte n'a aucune clé d'accès.",
  "accounts.reauthentication_required":
    "Cette action demande une connexion récente : confirmez que c'est bien vous, puis réessayez dans les 10 minutes.",
  "accounts.api_key_not_allowed":
    "Une clé d'API ne peut pas gérer les identifiants ; connectez-vous pour le faire.",

  "accounts.welcome":
    "Bienvenue ! Votre compte est prêt. Consultez vos e-mails pour confirmer votre adresse.",
  "accounts.welcome_without_mail": "Bienvenue ! Votre compte est prêt.",
  "accounts.invalid_login": "Adresse e-mail ou mot de passe incorrect.",
  "accounts.signed_in": "Connexion réussie.",
  "accounts.signed_out": "Déconnexion réussie.",
  "accounts.account_deleted": "Votre compte a été supprimé.",
  "accounts.magic_link_sent":
    "Si un compte existe pour cette adresse, un lien de connexion est en route.",
  "accounts.magic_link_invalid": "Ce lien de connexion n'est pas valide ou a expiré.",
  "accounts.password_reset_sent":
    "Si un compte existe pour cette adresse, un lien pour réinitialiser votre mot de passe est en route.",
  "accounts.password_reset_invalid":
    "Ce lien de réinitialisation du mot de passe n'est pas valide ou a expiré.",
  "accounts.password_changed":
    "Votre mot de passe a été changé. Connectez-vous dès maintenant avec celui-ci.",
  "accounts.confirmation_sent": "Un nouveau lien de confirmation est en route.",
  "accounts.already_confirmed": "Votre adresse e-mail est déjà confirmée.",
  "accounts.confirmed": "Merci, votre adresse e-mail est confirmée.",
  "accounts.confirmation_invalid": "Ce lien de confirmation n'est pas valide ou a expiré.",
  "accounts.session_ended": "Cet appareil est déconnecté.",
  "accounts.other_sessions_ended": "{count} autre(s) session(s) déconnectée(s).",

  "accounts.field.email": "Adresse e-mail",
  "accounts.field.password": "Mot de passe",
  "accounts.field.password_confirmation": "Confirmation du mot de passe",
  "accounts.confirmation_mismatch": "ne correspond pas au mot de passe",

  "accounts.bad_request_title": "Requête incorrecte",
  "accounts.unreadable_form": "Le formulaire n'a pas pu être lu.",
  "accounts.form_too_large_title": "Formulaire trop volumineux",
  "accounts.form_too_large": "Le formulaire dépasse {megabytes} Mo.",
  "accounts.too_many_requests_title": "Trop de requêtes",

  "accounts.signup.title": "Créer un compte",
  "accounts.signup.password_label": "Mot de passe (de 8 à 128 caractères)",
  "accounts.signup.have_account": "Vous avez déjà un compte ?",
  "accounts.login.title": "Se connecter",
  "accounts.login.remember_me": "Garder ma session ouverte pendant deux semaines",
  "accounts.login.forgot_password": "Mot de passe oublié ?",
  "accounts.login.other_ways": "Autres façons de se connecter",
  "accounts.login.new_here": "Pas encore de compte ?",
  "accounts.second_factor.title": "Authentification à deux facteurs",
  "accounts.second_factor.prompt":
    "Saisissez le code à 6 chiffres de votre application d'authentification, ou l'un de vos codes de secours.",
  "accounts.second_factor.code_label": "Code",
  "accounts.second_factor.submit": "Vérifier",
  "accounts.second_factor.invalid": "Ce code n'est pas valide.",
  "accounts.second_factor.expired":
    "Votre connexion a pris trop de temps ou a reçu trop de codes erronés. Connectez-vous à nouveau.",

  "accounts.account.title": "Votre compte",
  "accounts.account.member_since": "Membre depuis",
  "accounts.account.confirm_title": "Veuillez confirmer votre adresse e-mail",
  "accounts.account.confirmation_sent_to":
    "Nous avons envoyé un lien de confirmation à {email}. Il est valable 24 heures.",
  "accounts.account.not_confirmed": "Votre adresse e-mail {email} n'est pas encore confirmée.",
  "accounts.account.resend_confirmation": "Envoyer un nouveau lien de confirmation",
  "accounts.account.devices_link": "Vos appareils connectés",
  "accounts.account.delete_title": "Supprimer votre compte",
  "accounts.account.delete_warning":
    "Cette action supprime votre compte et tout ce qui lui appartient, immédiatement et définitivement.",
  "accounts.account.confirm_with_password": "Votre mot de passe, pour confirmer",
  "accounts.account.confirm_with_email": "Votre adresse e-mail, pour confirmer",
  "accounts.account.delete_button": "Supprimer mon compte",

  "accounts.login.passkey": "Se connecter avec une clé d'accès",
  "accounts.login.passkey_failed": "Cette clé d'accès n'a pas pu vous connecter.",
  "accounts.second_factor.passkey": "Utiliser une clé d'accès",
  "accounts.account.security_link": "Authentification à deux facteurs et clés d'accès",
  "accounts.security.title": "Sécurité",
  "accounts.security.totp_title": "Application d'authentification",
  "accounts.security.totp_off":
    "Les codes à deux facteurs sont désactivés : activez-les pour qu'un code d'une application d'authentification vous soit demandé après votre mot de passe.",
  "accounts.security.totp_enable": "Activer les codes à deux facteurs",
  "accounts.security.totp_scan":
    "Scannez ce QR code avec votre application d'authentification, ou saisissez la clé, puis entrez le code qu'elle affiche.",
  "accounts.security.totp_key": "Clé",
  "accounts.security.totp_confirm": "Activer",
  "accounts.security.totp_on":
    "Les codes à deux facteurs sont activés. Codes de secours restants : {count}.",
  "accounts.security.totp_enabled": "Les codes à deux facteurs sont activés.",
  "accounts.security.totp_disabled": "Les codes à deux facteurs sont désactivés.",
  "accounts.security.totp_disable": "Désactiver les codes à deux facteurs",
  "accounts.security.backup_codes_title": "Vos codes de secours",
  "accounts.security.backup_codes_intro":
    "Gardez ces codes en lieu sûr : chacun vous connecte une fois si vous perdez votre appareil. Ils ne sont affichés qu'ici.",
  "accounts.security.regenerate": "Générer de nouveaux codes de secours",
  "accounts.security.passkeys_title": "Clés d'accès",
  "accounts.security.no_passkeys": "Vous n'avez pas encore de clé d'accès.",
  "accounts.security.passkey_name": "Nom",
  "accounts.security.passkey_added_at": "Ajoutée le",
  "accounts.security.passkey_last_used": "Dernière utilisation",
  "accounts.security.never_used": "Jamais",
  "accounts.security.rename": "Renommer",
  "accounts.security.remove": "Supprimer",
  "accounts.security.add_passkey": "Ajouter une clé d'accès",
  "accounts.security.passkey_added": "Clé d'accès ajoutée.",
  "accounts.security.passkey_renamed": "Clé d'accès renommée.",
  "accounts.security.passkey_removed": "Clé d'accès supprimée.",
  "accounts.security.back_to_account": "Retour à votre compte",
  "accounts.security.reauthenticate_title": "Confirmez que c'est bien vous",
  "accounts.security.reauthenticate_intro":
    "Modifier vos seconds facteurs, vos clés d'accès ou votre compte demande une connexion de moins de 10 minutes.",
  "accounts.security.reauthenticate_button": "Confirmer",
  "accounts.security.sign_in_again": "Reconnectez-vous pour modifier ces réglages.",
  "accounts.security.reauthenticated":
    "Merci : vous pouvez modifier ces réglages pendant les 10 prochaines minutes.",
  "accounts.back_to_login": "Retour à la connexion",
  "accounts.magic_link.request_title": "Se connecter avec un lien",
  "accounts.magic_link.request_intro":
    "Saisissez votre adresse e-mail et nous vous enverrons un lien qui vous connecte.",
  "accounts.magic_link.request_button": "M'envoyer un lien de connexion",
  "accounts.magic_link.confirm_title": "Se connecter",
  "accounts.magic_link.confirm_intro":
    "Appuyez sur le bouton pour vous connecter. Le lien ne fonctionne qu'une fois.",
  "accounts.password_reset.request_title": "Réinitialiser votre mot de passe",
  "accounts.password_reset.request_intro":
    "Saisissez votre adresse e-mail et nous vous enverrons un lien pour choisir un nouveau mot de passe.",
  "accounts.password_reset.request_button": "M'envoyer un lien de réinitialisation",
  "accounts.new_password.title": "Choisir un nouveau mot de passe",
  "accounts.new_password.password_label": "Nouveau mot de passe (de 8 à 128 caractères)",
  "accounts.new_password.confirmation_label": "Nouveau mot de passe, une seconde fois",
  "accounts.new_password.button": "Enregistrer le nouveau mot de passe",
  "accounts.sign_out_other_sessions": "Déconnecter toutes les autres sessions",
  "accounts.confirmation.title": "Confirmer votre adresse e-mail",
  "accounts.confirmation.intro": "Appuyez sur le bouton pour confirmer votre adresse e-mail.",
  "accounts.confirmation.button": "Confirmer mon adresse e-mail",

  "accounts.sessions.title": "Appareils connectés",
  "accounts.sessions.intro":
    "Ces navigateurs sont connectés à votre compte. Un appareil que vous déconnectez ici l'est dès sa prochaine requête.",
  "accounts.sessions.browser": "Navigateur",
  "accounts.sessions.ip_address": "Adresse IP",
  "accounts.sessions.last_seen": "Dernière activité",
  "accounts.sessions.signed_in_with": "Connecté avec",
  "accounts.sessions.factors_unknown": "Non enregistré",
  "accounts.factor.password": "Mot de passe",
  "accounts.factor.magic_link": "Lien de connexion",
  "accounts.factor.email_code": "Code de connexion",
  "accounts.factor.oauth": "Fournisseur de connexion",
  "accounts.factor.totp": "Code d'authentification",
  "accounts.factor.backup_code": "Code de secours",
  "accounts.factor.passkey": "Clé d'accès",
  "accounts.factor.user_verification": "Vérifié sur l'appareil",
  "accounts.sessions.action": "Action",
  "accounts.sessions.this_device": "Cet appareil",
  "accounts.sessions.sign_out": "Déconnecter",
  "accounts.sessions.unknown_address": "Inconnue",
  "accounts.sessions.back_to_account": "Retour à votre compte",
  "accounts.sessions.not_found": "Aucune session de ce type n'est connectée à votre compte.",
  "accounts.sessions.see_devices": "Voir vos appareils connectés",

  "accounts.mail.confirmation_subject": "Confirmez votre adresse e-mail",
  "accounts.mail.confirmation_intro":
    "Veuillez confirmer que {email} est bien votre adresse e-mail en ouvrant ce lien :",
  "accounts.mail.confirmation_ignore":
    "Si vous n'avez pas créé de compte, vous pouvez ignorer cet e-mail.",
  "accounts.mail.magic_link_subject": "Votre lien de connexion",
  "accounts.mail.magic_link_intro": "Ouvrez ce lien pour vous connecter en tant que {email} :",
  "accounts.mail.magic_link_ignore":
    "Si vous n'avez pas demandé à vous connecter, vous pouvez ignorer cet e-mail.",
  "accounts.mail.password_reset_subject": "Réinitialisez votre mot de passe",
  "accounts.mail.password_reset_intro":
    "Ouvrez ce lien pour choisir un nouveau mot de passe pour {email} :",
  "accounts.mail.password_reset_ignore":
    "Si vous n'avez pas demandé à réinitialiser votre mot de passe, vous pouvez ignorer cet e-mail.",
  "accounts.mail.validity": "Le lien est valable {lifetime} et ne fonctionne qu'une fois.",
  "accounts.mail.email_code_subject": "Votre code de connexion",
  "accounts.mail.email_code_intro": "Votre code pour vous connecter en tant que {email} :",
  "accounts.mail.email_code_validity":
    "Le code est valable {lifetime} et ne fonctionne qu'une fois.",
  "accounts.mail.email_code_ignore":
    "Si vous n'avez pas demandé à vous connecter, vous pouvez ignorer cet e-mail : personne ne peut utiliser le code sans lui.",
  "accounts.mail.one_hour": "1 heure",
  "accounts.mail.hours": "{hours} heures",
  "accounts.mail.one_minute": "1 minute",
  "accounts.mail.minutes": "{minutes} minutes",
  "accounts.password.changed": "Votre mot de passe a été modifié.",
  "accounts.password.incorrect": "est incorrect",
  "accounts.password.link": "Modifier votre mot de passe",
  "accounts.password.title": "Modifier votre mot de passe",
  "accounts.password.set_title": "Choisir un mot de passe",
  "accounts.field.current_password": "Mot de passe actuel",
  "accounts.password.new": "Nouveau mot de passe",
  "accounts.password.confirmation": "Confirmez le nouveau mot de passe",
  "accounts.password.sign_out_others": "Déconnecter mes autres sessions",
  "accounts.password.submit": "Modifier le mot de passe",
  "accounts.email_change.sent": "Un lien de confirmation attend dans votre nouvelle boîte.",
  "accounts.email_change.changed": "Votre adresse e-mail a été modifiée.",
  "accounts.email_change.invalid": "Ce lien de changement d'adresse est invalide ou a expiré.",
  "accounts.email_change.taken": "Un autre compte a pris cette adresse e-mail entre-temps.",
  "accounts.email_change.link": "Modifier votre adresse e-mail",
  "accounts.email_change.title": "Modifier votre adresse e-mail",
  "accounts.email_change.new_email": "Nouvelle adresse e-mail",
  "accounts.email_change.submit": "Envoyer un lien de confirmation",
  "accounts.email_change.confirm_title": "Confirmez votre nouvelle adresse e-mail",
  "accounts.email_change.confirm_intro": "Faire de {email} l'adresse de votre compte ?",
  "accounts.email_change.confirm_submit": "Confirmer",
  "accounts.field.name": "Nom",
  "accounts.profile.save": "Enregistrer",
  "accounts.profile.updated": "Votre profil a été mis à jour.",
  "accounts.mail.password_changed_subject": "Votre mot de passe a été modifié",
  "accounts.mail.password_changed_intro":
    "Le mot de passe de {email} a été modifié le {when} depuis {browser}.",
  "accounts.mail.password_changed_not_you":
    "Si ce n'était pas vous, réinitialisez votre mot de passe maintenant : {link}",
  "accounts.mail.email_change_subject": "Confirmez votre nouvelle adresse e-mail",
  "accounts.mail.email_change_intro":
    "Ouvrez ce lien pour faire de {email} l'adresse de votre compte :",
  "accounts.mail.email_change_ignore":
    "Si vous n'avez pas demandé ce changement, ignorez cet e-mail : rien ne change sans le lien.",
  "accounts.mail.email_changing_subject": "Votre adresse e-mail est en cours de modification",
  "accounts.mail.email_changing_intro":
    "Une personne connectée à votre compte a demandé à changer son adresse en {email}. Rien ne change tant que cette adresse ne l'a pas confirmé.",
  "accounts.mail.email_changing_not_you":
    "Si ce n'était pas vous, réinitialisez votre mot de passe maintenant : {link}",
} as const satisfies Record<AccountMessageId, string>;
