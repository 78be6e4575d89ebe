import { BLANK, INVALID, TAKEN } from "@tessera/fields/messages";
import { addFieldError, type FieldErrors } from "../messages.js";
import { isValidEmail } from "../users/email.js";
import type { UserStore } from "../users/user-store.js";

/**
 * The messages on `email` for an address a user asks to move to (normalized by the caller with
 * `normalizeEmail`), or undefined when it may be asked for: blank, invalid and taken as sign-up
 * judges them. Taken means by anyone, the user's own current address included. The store's
 * unique index decides again when the link is used: the address may be taken meanwhile.
 */
export async function newEmailErrors(
  users: UserStore,
  email: string,
): Promise<FieldErrors | undefined> {
  const errors: FieldErrors = {};
  if (email === "") addFieldError(errors, "email", BLANK);
  else if (!isValidEmail(email)) addFieldError(errors, "email", INVALID);
  else if (await users.findByEmail(email)) addFieldError(errors, "email", TAKEN);
  return Object.keys(errors).length > 0 ? errors : undefined;
}
