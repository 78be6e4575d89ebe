import { isValidEmail } from "@tessera/accounts";
import {
  BLANK,
  INVALID,
  type Locale,
  localizeFieldMessages,
  tooLongMessage,
  validationMessages,
} from "@tessera/core";
import { validationFailed } from "@tessera/http";
import type { Roles } from "../roles.js";
import { SLUG_LENGTH, SLUG_RESERVED, SLUG_SHAPE, slugProblem } from "../slug.js";
import { type OrganizationMessageId, organizationMessages } from "./organization-messages.js";

/** The longest organization name, in characters. */
export const MAXIMUM_ORGANIZATION_NAME_LENGTH = 100;

/** Field name → English messages, as a 422's `fields` holds them before translation. */
export type FieldErrors = Record<string, string[]>;

const english = organizationMessages.english;

/** On `name`: a control character (a line break would end up in a mail's subject). */
const NAME_CONTROL_CHARACTER = english["organizations.name_control_character"];
/** On `email`: the address is a member's already. */
export const ALREADY_MEMBER = english["organizations.already_member"];
/** On `slug`: another organization has it. */
export const TAKEN = validationMessages.english["validation.taken"];
/** On `role`: not a role of the app. */
const NOT_A_ROLE = validationMessages.english["validation.not_in_list"];

// The package's own field messages, by the catalog id that translates them; the others are the
// shared validation ones, which localizeFieldMessages knows.
const OWN_FIELD_MESSAGES: Readonly<Record<string, OrganizationMessageId>> = {
  [SLUG_LENGTH]: "organizations.slug_length",
  [SLUG_SHAPE]: "organizations.slug_shape",
  [SLUG_RESERVED]: "organizations.slug_reserved",
  [NAME_CONTROL_CHARACTER]: "organizations.name_control_character",
  [ALREADY_MEMBER]: "organizations.already_member",
};

const CONTROL_CHARACTER = /\p{Cc}/u;

/** Why a name is refused (blank, longer than 100 characters, a control character), or undefined. */
export function nameProblem(name: string | undefined): string | undefined {
  if (name === undefined || name.trim() === "") return BLANK;
  if ([...name].length > MAXIMUM_ORGANIZATION_NAME_LENGTH) {
    return tooLongMessage(MAXIMUM_ORGANIZATION_NAME_LENGTH);
  }
  return CONTROL_CHARACTER.test(name) ? NAME_CONTROL_CHARACTER : undefined;
}

/** Why a slug a client wrote is refused, or undefined. */
export function writtenSlugProblem(slug: string): string | undefined {
  return slug === "" ? BLANK : slugProblem(slug);
}

/** Why a role is refused (missing, or not one of the app's), or undefined. */
export function roleProblem(role: string | undefined, roles: Roles): string | undefined {
  if (role === undefined || role === "") return BLANK;
  return roles.has(role) ? undefined : NOT_A_ROLE;
}

/** Why a normalized address is refused (blank, or not an address as accounts take one), or undefined. */
export function emailProblem(email: string): string | undefined {
  if (email === "") return BLANK;
  return isValidEmail(email) ? undefined : INVALID;
}

/** Adds `message` on `field` when there is one. */
export function addProblem(fields: FieldErrors, field: string, message: string | undefined): void {
  if (message !== undefined) fields[field] = [...(fields[field] ?? []), message];
}

/** Every message of `fields` in `locale`: the package's own and the shared validation ones. */
export function translatedFieldErrors(
  fields: FieldErrors,
  locale: Locale | undefined,
): FieldErrors {
  const translated: FieldErrors = {};
  for (const [field, messages] of Object.entries(fields)) {
    translated[field] = messages.map((message) => {
      const id = OWN_FIELD_MESSAGES[message];
      return id === undefined ? message : organizationMessages.text(locale, id);
    });
  }
  return localizeFieldMessages(translated, locale);
}

/** The 422 of `fields`, every message in `locale`. */
export function fieldRefusal(fields: FieldErrors, locale: Locale | undefined): Response {
  return validationFailed(translatedFieldErrors(fields, locale), locale);
}
