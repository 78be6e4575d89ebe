import type { MessageCatalog } from "@tessera/core";
import type { RecordMessageId } from "@tessera/records";

// Model names are the app's own (`post`, `comment`) and not translated, so the sentences that
// carry one are built around it rather than agreeing with its gender.
/** `@tessera/records`' messages in French. */
export const frenchRecords: MessageCatalog = {
  "records.stale_record":
    "Cet enregistrement a été modifié par quelqu'un d'autre : rechargez-le et réessayez",
  "records.range_not_satisfiable": "Plage non satisfaisable",
  "records.range_outside_file": "La plage demandée est en dehors du fichier.",
  "records.created": "{model} : enregistrement créé.",
  "records.updated": "{model} : enregistrement mis à jour.",
  "records.deleted": "{model} : enregistrement supprimé.",
  "records.not_found": "Introuvable",
  "records.not_allowed": "Non autorisé",
  "records.no_such_record": "Cet enregistrement n'existe pas.",
  "records.account_gone": "Ce compte n'existe plus.",
  "records.form_too_large": "Formulaire trop volumineux",
  "records.form_larger_than": "Le formulaire dépasse {size}.",
  "records.form_too_many_parts": "Le formulaire contient plus de {count} champs et fichiers.",
  "records.form_too_many_per_field":
    "Le formulaire envoie plus de {count} fichiers pour un même champ.",
  "records.bad_request": "Requête invalide",
  "records.form_unreadable": "Le formulaire n'a pas pu être lu.",
  "records.yes": "Oui",
  "records.no": "Non",
  "records.show": "Afficher",
  "records.newer": "Plus récents",
  "records.older": "Plus anciens",
  "records.none_yet": "Aucun enregistrement ({models}) pour l'instant.",
  "records.actions": "Actions",
  "records.pages": "Pages",
  "records.new": "Nouvel enregistrement : {model}",
  "records.created_at": "Créé le",
  "records.updated_at": "Modifié le",
  "records.edit": "Modifier",
  "records.back_to": "Retour à la liste : {models}",
  "records.delete_this": "Supprimer cet enregistrement ({model})",
  "records.create": "Créer ({model})",
  "records.edit_heading": "Modifier l'enregistrement : {model}",
  "records.update": "Enregistrer ({model})",
  "records.cancel": "Annuler",
  "records.file_details": "{type}, {size} octets",
} satisfies Record<RecordMessageId, string>;
