import type { MessageCatalog } from "@tessera/core";
import type { OrganizationMessageId } from "@tessera/organizations/routes";

/** `@tessera/organizations/routes`' messages in French: pages, API answers and invitation mails. */
export const frenchOrganizations: MessageCatalog = {
  "organizations.unknown_field": "Champ inconnu : {field}.",
  "organizations.not_a_string": "{field} doit être une chaîne de caractères.",
  "organizations.nul_character": "{field} ne doit pas contenir de caractère NUL.",
  "organizations.lone_surrogate": "{field} ne doit pas contenir de demi-caractère isolé.",
  "organizations.permission_required": "Il vous faut la permission {permission}.",
  "organizations.role_not_grantable":
    "Votre rôle ne peut ni donner ni retirer le rôle {role} : il permet plus que le vôtre.",
  "organizations.last_owner":
    "Une organisation a besoin d'un propriétaire : nommez-en un autre avant que celui-ci parte ou change de rôle.",
  "organizations.sole_owner_account":
    "Vous êtes le seul propriétaire de {organizations} : nommez un autre membre propriétaire, ou supprimez l'organisation, avant de supprimer votre compte.",
  "organizations.invitation_not_found":
    "Cette invitation ne peut pas être acceptée : elle a été utilisée ou révoquée, ou elle a expiré.",
  "organizations.invitation_email_mismatch":
    "Cette invitation a été envoyée à une autre adresse : connectez-vous avec le compte de cette adresse pour l'accepter.",
  "organizations.invitation_email_unconfirmed":
    "Confirmez votre adresse e-mail avant d'accepter une invitation.",
  "organizations.invitation_not_sent":
    "Le message d'invitation n'a pas pu être envoyé : réessayez plus tard.",
  "organizations.name_control_character": "ne doit pas contenir de caractères de contrôle",
  "organizations.already_member": "est déjà membre de cette organisation",
  "organizations.slug_length": "doit faire de 3 à 40 caractères",
  "organizations.slug_shape":
    "ne peut contenir que des minuscules, des chiffres et des tirets simples à l'intérieur",
  "organizations.slug_reserved": "est réservé",
  "organizations.invitation_mail_subject": "Vous êtes invité à rejoindre {organization}",
  "organizations.invitation_mail_intro":
    "{inviter} vous invite à rejoindre {organization} avec le rôle {role}.",
  "organizations.invitation_mail_action": "Acceptez l'invitation ici :",
  "organizations.invitation_page_title": "Rejoindre {organization}",
  "organizations.invitation_page_intro":
    "Vous êtes invité à rejoindre {organization} avec le rôle {role}.",
  "organizations.invitation_page_gone": "Invitation indisponible",
  "organizations.invitation_accept_button": "Accepter l'invitation",
  "organizations.invitation_accepted": "Vous avez rejoint {organization} avec le rôle {role}.",
  "organizations.page_title": "Organisations",
  "organizations.page_none": "Vous n'êtes encore membre d'aucune organisation.",
  "organizations.create_heading": "Créer une organisation",
  "organizations.name_label": "Nom",
  "organizations.slug_label": "Adresse dans les liens (facultative : tirée du nom)",
  "organizations.create_button": "Créer l'organisation",
  "organizations.created": "L'organisation {organization} a été créée.",
  "organizations.not_found": "Cette organisation n'existe pas, ou vous n'en êtes pas membre.",
  "organizations.your_role": "Votre rôle : {role}.",
  "organizations.members_heading": "Membres",
  "organizations.member_email": "E-mail",
  "organizations.member_name": "Nom",
  "organizations.member_role": "Rôle",
  "organizations.member_joined": "Arrivée (UTC)",
  "organizations.invitations_heading": "Invitations en attente",
  "organizations.invitation_row": "{email} comme {role}, jusqu'au {expires} (UTC)",
  "organizations.invite_heading": "Inviter quelqu'un",
  "organizations.invite_email_label": "Adresse e-mail",
  "organizations.invite_role_label": "Rôle",
  "organizations.invite_button": "Envoyer l'invitation",
  "organizations.invited": "Une invitation a été envoyée à {email}.",
  "organizations.leave_button": "Quitter cette organisation",
  "organizations.left": "Vous avez quitté {organization}.",
  "organizations.role_changed": "{email} est maintenant {role}.",
  "organizations.member_removed": "{email} a été retiré de l'organisation.",
  "organizations.invitation_revoked": "L'invitation a été révoquée : son lien ne fonctionne plus.",
  "organizations.no_such_member": "Ce membre n'existe pas.",
  "organizations.no_such_invitation": "Cette invitation en attente n'existe pas.",
  "organizations.no_such_role": "Ce rôle n'existe pas.",
  "organizations.change_role_button": "Changer le rôle",
  "organizations.remove_button": "Retirer",
  "organizations.revoke_button": "Révoquer",
  "organizations.invitation_mail_validity":
    "L'invitation est valable jusqu'au {expires} (UTC). Si vous ne l'attendiez pas, ignorez ce message.",
  "organizations.settings_heading": "Nom et adresse",
  "organizations.settings_slug_label": "Adresse dans les liens",
  "organizations.settings_button": "Enregistrer le nom et l'adresse",
  "organizations.renamed": "L'organisation a été renommée : {organization}, à l'adresse {slug}.",
  "organizations.delete_heading": "Supprimer cette organisation",
  "organizations.delete_warning":
    "Supprimer {organization} supprime pour de bon ses membres, ses invitations en attente et tout ce qu'elle possède.",
  "organizations.delete_confirm_label": "Tapez {slug} pour confirmer",
  "organizations.delete_button": "Supprimer l'organisation",
  "organizations.delete_not_confirmed":
    "Tapez l'adresse de l'organisation, {slug}, exactement comme elle est écrite pour confirmer la suppression.",
  "organizations.deleted": "L'organisation {organization} a été supprimée.",
  "organizations.switcher_label": "Vos organisations",
  "organizations.switcher_all": "Toutes les organisations, ou une nouvelle",
} satisfies Record<OrganizationMessageId, string>;
