import type { Clock, Locale } from "@tessera/core";
import type { Mailer } from "@tessera/mail";
import { sendNoticeMail } from "../notice-mail-delivery.js";
import { storeWithMail } from "../token-mail-delivery.js";
import type { TokenMailTransaction } from "../token-mail-transaction.js";
import type { User } from "../users/user.js";
import { emailChangeMail, emailChangingMail } from "./email-change-mails.js";
import type { EmailChangeStore } from "./email-change-store.js";
import { issueEmailChange } from "./email-change-tokens.js";

/** Where a requested change is stored and how its two mails go out. */
export interface EmailChangeMailing {
  readonly emailChanges: EmailChangeStore;
  readonly mailer: Mailer;
  /** The change and its link's mail in one transaction, when given (see `storeWithMail`). */
  readonly tokenMailTransaction?: TokenMailTransaction | undefined;
  /** Told of a mail that could not be handed over, with its purpose; never the token. */
  readonly reportMailError: (error: unknown, purpose: string) => void;
  readonly clock: Clock;
}

/**
 * Records that `user` asks to move to `newEmail` (normalized and checked: `newEmailErrors`),
 * replacing a pending request, and mails the link to the new address (with the stored change,
 * through `storeWithMail`), then the notice to the current one. Nothing changes on the user
 * until the link is used. A mail that cannot be handed over is reported, never thrown.
 */
export async function requestEmailChange(
  mailing: EmailChangeMailing,
  user: User,
  newEmail: string,
  origin: string,
  locale: Locale | undefined,
): Promise<void> {
  const { mailer, reportMailError } = mailing;
  const delivery = {
    mailer,
    tokenMailTransaction: mailing.tokenMailTransaction,
    stores: { emailChanges: mailing.emailChanges },
    reportMailError,
  };
  await storeWithMail(delivery, "email_change", async ({ emailChanges }) => {
    if (!emailChanges) throw new Error("the token mail transaction has no email change store");
    const token = await issueEmailChange(emailChanges, user.id, newEmail, mailing.clock);
    return emailChangeMail({ to: newEmail, origin, token, locale });
  });
  // The notice carries no secret, so it needs no transaction with the change.
  const notice = emailChangingMail({ to: user.email, newEmail, origin, locale });
  await sendNoticeMail(mailer, notice, "email_changing", reportMailError);
}
