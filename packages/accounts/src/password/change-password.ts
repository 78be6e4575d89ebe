import type { Locale } from "@tessera/core";
import { BLANK } from "@tessera/fields/messages";
import { hashPassword } from "@tessera/password";
import { browserName, endOtherTrackedSessions, type TrackedSessionStore } from "@tessera/session";
import type { AccountEvents, HookRequest } from "../account-hooks.js";
import { addFieldError, type FieldErrors } from "../messages.js";
import { type AccountNotices, mailAccountNotice } from "../notice-mail-delivery.js";
import type { User } from "../users/user.js";
import type { BreachedPasswordCheck } from "./breached-passwords.js";
import type { CurrentPasswordParts } from "./current-password.js";
import { checkNewPassword } from "./new-password-check.js";
import { passwordChangedMail } from "./password-changed-mail.js";

/** What a password change writes through and tells. */
export interface PasswordChangeParts extends CurrentPasswordParts {
  readonly events: AccountEvents;
  /** The device list: with it, signing the others out deletes their rows too. */
  readonly trackedSessions?: TrackedSessionStore | undefined;
  /** Without them no notice is mailed (an app that sends no mail). */
  readonly notices?: AccountNotices | undefined;
  /** Refuses a new password seen in data breaches; without it none is looked up. */
  readonly breachedPasswords?: BreachedPasswordCheck | undefined;
}

/** How a password change treats the user's other sign-ins. */
export interface PasswordChangeOptions {
  /**
   * End every token and session signed in before now (`credentialsChangedAt`), and every
   * tracked device but `keepDeviceId`. API keys stay: they are revoked one by one.
   */
  readonly signOutOthers: boolean;
  /** The tracked device that made the change, which stays signed in. */
  readonly keepDeviceId?: number | undefined;
}

/**
 * Gives the user `newPassword` (the caller has judged the proof: `judgeCurrentPassword`): the
 * policy's messages (or the breach message, see `checkNewPassword`) on `password` when it is
 * refused; otherwise the digest is written, with
 * `credentialsChangedAt` in the same statement when the others are signed out, their tracked
 * devices ended, `onPasswordChanged` announced and the notice `Your password was changed`
 * mailed to the account's address. Returns the user as changed.
 */
export async function changePassword(
  parts: PasswordChangeParts,
  user: User,
  newPassword: string,
  options: PasswordChangeOptions,
  at: HookRequest & { readonly locale?: Locale | undefined },
): Promise<
  { readonly ok: true; readonly user: User } | { readonly ok: false; readonly fields: FieldErrors }
> {
  const fields: FieldErrors = {};
  if (newPassword === "") addFieldError(fields, "password", BLANK);
  const refused = await checkNewPassword(newPassword, {
    breachedPasswords: parts.breachedPasswords,
    locale: at.locale,
  });
  for (const message of refused) addFieldError(fields, "password", message);
  if (Object.keys(fields).length > 0) return { ok: false, fields };

  const digest = await hashPassword(newPassword, parts.passwords);
  const now = parts.clock();
  const { signOutOthers } = options;
  await parts.users.updatePasswordDigest(user.id, digest, now, { endSignIns: signOutOthers });
  if (signOutOthers && parts.trackedSessions) {
    await endOtherTrackedSessions(parts.trackedSessions, user.id, options.keepDeviceId);
  }
  const changed = (await parts.users.findById(user.id)) ?? { ...user, passwordDigest: digest };
  await parts.events.passwordChanged(changed, signOutOthers, at);
  if (parts.notices) await mailPasswordNotice(parts.notices, changed, now, at);
  return { ok: true, user: changed };
}

function mailPasswordNotice(
  notices: AccountNotices,
  user: User,
  changedAt: number,
  at: HookRequest & { readonly locale?: Locale | undefined },
): Promise<void> {
  const browser = browserName(at.request.headers.get("user-agent"), at.locale);
  return mailAccountNotice(notices, at.request, "password_changed", (origin) =>
    passwordChangedMail({ to: user.email, changedAt, browser, origin, locale: at.locale }),
  );
}
