import type { Mailer, MailMessage } from "@tessera/mail";

/**
 * Hands over a notice, a mail that carries no secret (`Your password was changed`): awaited
 * when the mailer stores it (an outbox), so the answer comes once it is safe; otherwise sent
 * without holding the answer up. A mail that cannot be handed over is reported with `purpose`,
 * never thrown: the change it tells of stands.
 */
export async function sendNoticeMail(
  mailer: Mailer,
  message: MailMessage,
  purpose: string,
  reportMailError: (error: unknown, purpose: string) => void,
): Promise<void> {
  const sending = mailer.send(message).catch((error: unknown) => reportMailError(error, purpose));
  if (mailer.stores) await sending;
}
