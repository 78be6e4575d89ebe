import type { MessageCatalog, ValidationMessageId } from "@tessera/core";

/**
 * `@tessera/core`'s validation messages in French, which every package's validators write: bare
 * as JSON carries them, and the full message and summary heading of HTML forms.
 */
export const frenchValidation: MessageCatalog = {
  "validation.blank": "doit être rempli(e)",
  "validation.invalid": "n'est pas valide",
  "validation.taken": "est déjà utilisé(e)",
  "validation.must_exist": "doit exister",
  "validation.not_a_number": "n'est pas un nombre",
  "validation.too_small": "doit être supérieur ou égal à {minimum}",
  "validation.too_big": "doit être inférieur ou égal à {maximum}",
  "validation.not_a_date": "n'est pas une date valide",
  "validation.not_a_datetime": "n'est pas une date et heure valide",
  "validation.not_a_time": "n'est pas une heure valide",
  "validation.not_a_decimal": "n'est pas un nombre décimal",
  "validation.not_a_uuid": "n'est pas un UUID valide",
  "validation.not_json": "n'est pas du JSON valide",
  "validation.not_in_list": "n'est pas inclus(e) dans la liste",
  "validation.too_short_characters": "est trop court (au moins {minimum} caractères)",
  "validation.too_long_characters": "est trop long (pas plus de {maximum} caractères)",
  "validation.too_long_bytes": "est trop long (pas plus de {maximum} octets)",
  "validation.too_large": "est trop volumineux (pas plus de {megabytes} Mo)",
  "validation.unsupported_type": "a un type non pris en charge (permis : {types})",
  "validation.full_message": "{field} {message}",
  "validation.summary.one": "{count} erreur a empêché l'envoi de ce formulaire",
  "validation.summary.other": "{count} erreurs ont empêché l'envoi de ce formulaire",
} satisfies Record<ValidationMessageId, string>;
