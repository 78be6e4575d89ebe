import type { Locale } from "@tessera/core";
import { checkPasswordPolicy } from "@tessera/password";
import { accountMessages } from "../account-messages.js";
import type { BreachedPasswordCheck } from "./breached-passwords.js";

/** What a new password is judged by beyond the length policy, and the language to say it in. */
export interface NewPasswordCheckOptions {
  /** Refuses a password seen in data breaches (`pwnedPasswords`); without it none is looked up. */
  readonly breachedPasswords?: BreachedPasswordCheck | undefined;
  /** The request's language, for the breach message. */
  readonly locale?: Locale | undefined;
}

/**
 * The messages refusing `password` as a new password, for `fields.password` (empty when it is
 * accepted): every password chosen at sign-up, reset or change passes here. The length policy
 * comes first, and only a password it accepts is looked up in breaches (a network call); the
 * policy's messages are English (translated where they leave), the breach message is written in
 * `locale`.
 */
export async function checkNewPassword(
  password: string,
  options: NewPasswordCheckOptions = {},
): Promise<string[]> {
  const refused = checkPasswordPolicy(password);
  if (refused.length > 0 || !options.breachedPasswords) return refused;
  if (!(await options.breachedPasswords(password))) return [];
  return [accountMessages.text(options.locale, "accounts.password.breached")];
}
