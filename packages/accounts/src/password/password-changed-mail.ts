import { formatTimestamp, html, type Locale } from "@tessera/core";
import type { MailMessage } from "@tessera/mail";
import { accountMessages } from "../account-messages.js";

/** Where "this wasn't me" sends a reader of an account notice: the password reset request. */
export const PASSWORD_RESET_REQUEST_PATH = "/passwords/new";

/** What the notice of a password change says. */
export interface PasswordChangedMailInput {
  /** The account's address: the recipient, also named in the mail. */
  readonly to: string;
  /** When the password changed (epoch ms), written in UTC. */
  readonly changedAt: number;
  /** The browser that changed it, as `browserName` of `@tessera/session` names it. */
  readonly browser: string;
  /** The origin of the reset link (`mailLinkOrigin`). */
  readonly origin: string;
  readonly locale?: Locale | undefined;
}

/**
 * The notice `Your password was changed`, to the account's address: when (UTC) and from which
 * browser, and the reset request page for a reader who did not do it. It carries no secret.
 */
export function passwordChangedMail(input: PasswordChangedMailInput): MailMessage {
  const { locale } = input;
  const when = `${formatTimestamp(input.changedAt)} UTC`;
  const intro = accountMessages.text(locale, "accounts.mail.password_changed_intro", {
    email: input.to,
    when,
    browser: input.browser,
  });
  const link = `${input.origin}${PASSWORD_RESET_REQUEST_PATH}`;
  const notYou = accountMessages.text(locale, "accounts.mail.password_changed_not_you", { link });
  return {
    to: input.to,
    subject: accountMessages.text(locale, "accounts.mail.password_changed_subject"),
    text: `${intro}\n\n${notYou}\n`,
    html: `${html`<p>${intro}</p>\n<p>${notYou}</p>`}\n`,
  };
}
