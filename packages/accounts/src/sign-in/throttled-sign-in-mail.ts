import { formatTimestamp, html, type Locale } from "@tessera/core";
import type { MailMessage } from "@tessera/mail";
import { accountMessages } from "../account-messages.js";
import { PASSWORD_RESET_REQUEST_PATH } from "../password/password-changed-mail.js";

/** What the notice of a throttled account says. */
export interface ThrottledSignInMailInput {
  /** The account's address: the recipient, also named in the mail. */
  readonly to: string;
  /** When the guess that started the waits came (epoch ms), written in UTC. */
  readonly at: number;
  /** The origin of the reset link (`mailLinkOrigin`). */
  readonly origin: string;
  readonly locale?: Locale | undefined;
}

/**
 * The notice `Someone is trying to sign in to your account`, sent once per throttled period:
 * when the wrong passwords made the account wait, that none was accepted, and the reset request page. It
 * carries no secret, and no address of the guesser (they come from many).
 */
export function throttledSignInMail(input: ThrottledSignInMailInput): MailMessage {
  const { locale } = input;
  const when = `${formatTimestamp(input.at)} UTC`;
  const intro = accountMessages.text(locale, "accounts.mail.throttled_intro", {
    email: input.to,
    when,
  });
  const link = `${input.origin}${PASSWORD_RESET_REQUEST_PATH}`;
  const notYou = accountMessages.text(locale, "accounts.mail.throttled_not_you", { link });
  return {
    to: input.to,
    subject: accountMessages.text(locale, "accounts.mail.throttled_subject"),
    text: `${intro}\n\n${notYou}\n`,
    html: `${html`<p>${intro}</p>\n<p>${notYou}</p>`}\n`,
  };
}
