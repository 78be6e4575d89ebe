import { html, type Locale } from "@tessera/core";
import type { MailMessage } from "@tessera/mail";
import { accountMessages } from "../account-messages.js";
import { isEmailedTokenShape } from "../email-link/emailed-tokens.js";
import { PASSWORD_RESET_REQUEST_PATH } from "../password/password-changed-mail.js";
import { EMAIL_CHANGE_LIFETIME_MS } from "./email-change-tokens.js";
import { maskEmail } from "./masked-email.js";

/** Where the link to a new address points: `<origin>/email_changes/<token>`. */
export const EMAIL_CHANGE_PATH = "/email_changes/";

const HOUR_MS = 3_600_000;

/** What the mail to the new address is made of. */
export interface EmailChangeMailInput {
  /** The new (normalized) address: the recipient, also named in the mail. */
  readonly to: string;
  /** Where the link points, as `mailLinkOrigin` returns it, e.g. `https://app.example`. */
  readonly origin: string;
  /** The token from `issueEmailChange`. */
  readonly token: string;
  /** The language of the request that asked for the change; English when absent. */
  readonly locale?: Locale | undefined;
}

/**
 * The mail `Confirm your new email address`, to the new address: the link
 * `<origin>/email_changes/<token>` alone on its line in the text part, how long it is valid and
 * that nothing changes without it; the HTML part says the same, escaped.
 * @throws RangeError when `token` is not a token (the caller's value, never a visitor's).
 */
export function emailChangeMail(input: EmailChangeMailInput): MailMessage {
  if (!isEmailedTokenShape(input.token)) throw new RangeError("not an email change token");
  const { locale } = input;
  const link = `${input.origin}${EMAIL_CHANGE_PATH}${input.token}`;
  const intro = accountMessages.text(locale, "accounts.mail.email_change_intro", {
    email: input.to,
  });
  const lifetime = accountMessages.text(locale, "accounts.mail.hours", {
    hours: EMAIL_CHANGE_LIFETIME_MS / HOUR_MS,
  });
  const validity = accountMessages.text(locale, "accounts.mail.validity", { lifetime });
  const outro = `${validity} ${accountMessages.text(locale, "accounts.mail.email_change_ignore")}`;
  return {
    to: input.to,
    subject: accountMessages.text(locale, "accounts.mail.email_change_subject"),
    text: `${intro}\n\n${link}\n\n${outro}\n`,
    html: `${html`<p>${intro}</p>
<p><a href="${link}">${link}</a></p>
<p>${outro}</p>`}\n`,
  };
}

/** What the notice to the old address is made of. */
export interface EmailChangingMailInput {
  /** The account's current address: the recipient. */
  readonly to: string;
  /** The address asked for, named masked (see `maskEmail`). */
  readonly newEmail: string;
  /** The origin of the reset link (`mailLinkOrigin`). */
  readonly origin: string;
  readonly locale?: Locale | undefined;
}

/**
 * The notice `Your email address is being changed`, to the account's current address: the new
 * address masked (`a•••@example.com`), that nothing changes until it confirms, and the reset
 * request page (`<origin>/passwords/new`) for a reader who did not ask. It carries no secret.
 */
export function emailChangingMail(input: EmailChangingMailInput): MailMessage {
  const { locale } = input;
  const intro = accountMessages.text(locale, "accounts.mail.email_changing_intro", {
    email: maskEmail(input.newEmail),
  });
  const link = `${input.origin}${PASSWORD_RESET_REQUEST_PATH}`;
  const notYou = accountMessages.text(locale, "accounts.mail.email_changing_not_you", { link });
  return {
    to: input.to,
    subject: accountMessages.text(locale, "accounts.mail.email_changing_subject"),
    text: `${intro}\n\n${notYou}\n`,
    html: `${html`<p>${intro}</p>\n<p>${notYou}</p>`}\n`,
  };
}
