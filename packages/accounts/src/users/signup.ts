import { type Clock, type Locale, systemClock } from "@tessera/core";
import { BLANK, INVALID, TAKEN } from "@tessera/fields/messages";
import { hashPassword, type PasswordHashOptions } from "@tessera/password";
import type { AccountEvents, HookRequest } from "../account-hooks.js";
import { addFieldError, type FieldErrors } from "../messages.js";
import type { BreachedPasswordCheck } from "../password/breached-passwords.js";
import { checkNewPassword } from "../password/new-password-check.js";
import type { OperatorColumn, OperatorColumnValue } from "../profile/operator-columns.js";
import { isValidEmail, normalizeEmail } from "./email.js";
import type { User } from "./user.js";
import type { UserStore } from "./user-store.js";

/**
 * What sign-up needs. `passwords` sets the hashing cost (tests lower it); `breachedPasswords`
 * refuses a password seen in data breaches.
 */
export interface SignupDependencies {
  readonly users: UserStore;
  readonly operatorColumns?: readonly OperatorColumn[] | undefined;
  readonly clock?: Clock | undefined;
  readonly passwords?: PasswordHashOptions | undefined;
  readonly breachedPasswords?: BreachedPasswordCheck | undefined;
}

/** The sign-up input after its shape was checked: email and password as texts, extras raw. */
export interface SignupInput {
  readonly email: string;
  readonly password: string;
  readonly [column: string]: unknown;
}

/**
 * Where a sign-up happened, for `onSignUp`: the events to announce it on, and the request (its
 * language writes the breach message).
 */
export interface SignupAnnouncement extends HookRequest {
  readonly events: AccountEvents;
  readonly locale?: Locale | undefined;
}

/** The created user, or every failing field's messages. */
export type SignupResult =
  | { readonly ok: true; readonly user: User }
  | { readonly ok: false; readonly fields: FieldErrors };

/**
 * Validates and creates a user: email normalized (NFKC, trimmed, lower-cased) and checked,
 * password policy (then, for a password it accepts, `breachedPasswords`), accepted operator
 * columns; every failing field is reported at once. A taken
 * email is `has already been taken`, also when a concurrent sign-up wins the race (the store's
 * unique index decides). With `announcement`, a created user is announced (`onSignUp`, method
 * `password`) before this returns.
 */
export async function signUp(
  dependencies: SignupDependencies,
  input: SignupInput,
  announcement?: SignupAnnouncement,
): Promise<SignupResult> {
  const errors: FieldErrors = {};
  const email = normalizeEmail(input.email);
  if (email === "") addFieldError(errors, "email", BLANK);
  else if (!isValidEmail(email)) addFieldError(errors, "email", INVALID);
  else if (await dependencies.users.findByEmail(email)) {
    addFieldError(errors, "email", TAKEN);
  }
  if (input.password === "") addFieldError(errors, "password", BLANK);
  else {
    const refused = await checkNewPassword(input.password, {
      breachedPasswords: dependencies.breachedPasswords,
      locale: announcement?.locale,
    });
    for (const message of refused) addFieldError(errors, "password", message);
  }

  const columns: Record<string, OperatorColumnValue> = {};
  for (const column of dependencies.operatorColumns ?? []) {
    if (!column.acceptedAtSignup) continue;
    const parsed = column.parse(input[column.name]);
    if (parsed.ok) columns[column.name] = parsed.value;
    else addFieldError(errors, column.name, parsed.reason);
  }
  if (Object.keys(errors).length > 0) return { ok: false, fields: errors };

  const passwordDigest = await hashPassword(input.password, dependencies.passwords);
  const now = (dependencies.clock ?? systemClock)();
  const created = await dependencies.users.create({ email, passwordDigest, columns }, now);
  if (!created.ok) return { ok: false, fields: { email: [TAKEN] } };
  if (announcement) {
    const { events, request, clientAddress } = announcement;
    await events.signedUp(created.value, "password", { request, clientAddress });
  }
  return { ok: true, user: created.value };
}
