import type { Mailer, MailMessage } from "@tessera/mail";
import type { TokenMailScope, TokenMailTransaction } from "./token-mail-transaction.js";

/** How {@link storeWithMail} stores a token and hands its mail over. */
export interface TokenMailing {
  readonly mailer: Mailer;
  /** Both in one transaction, when given. */
  readonly tokenMailTransaction?: TokenMailTransaction | undefined;
  /** The stores written without a transaction. */
  readonly stores: Omit<TokenMailScope, "mailer">;
  /** Told of a mail that could not be handed over (or stored), with its purpose. */
  readonly reportMailError: (error: unknown, purpose: string) => void;
}

/**
 * The one way an account mail that carries a secret is sent: `write` stores the token (or
 * code) through the stores it is given and returns the mail; the mail is then handed over.
 * With a `tokenMailTransaction` both happen in one transaction, and a failure writes neither;
 * otherwise the token is stored, then the mail sent, awaited only when the mailer `stores` it
 * (a mailer that sends would make the answer's timing tell whether the account exists).
 * A mail that cannot be handed over is reported, never thrown: the answer stays the same.
 */
export async function storeWithMail(
  mailing: TokenMailing,
  purpose: string,
  write: (stores: Omit<TokenMailScope, "mailer">) => Promise<MailMessage>,
): Promise<void> {
  const { mailer, tokenMailTransaction: transaction, reportMailError } = mailing;
  if (transaction) {
    await transaction(async (scope) => {
      await scope.mailer.send(await write(scope));
    }).catch((error: unknown) => reportMailError(error, purpose));
    return;
  }
  const message = await write(mailing.stores);
  const sending = mailer.send(message).catch((error: unknown) => reportMailError(error, purpose));
  if (mailer.stores) await sending;
}
