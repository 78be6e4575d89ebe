import type { Mailer, MailMessage } from "@tessera/mail";
import { mailLinkOrigin } from "./account-emails.js";

/** Where account notices go, and the origin their links point to. */
export interface AccountNotices {
  readonly mailer: Mailer;
  /** `APP_URL` and `ALLOWED_ORIGINS`, as for every mail link (see `mailLinkOrigin`). */
  readonly appUrl?: string | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly reportMailError: (error: unknown, purpose: string) => void;
}

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

/**
 * Mails the notice `compose` writes for the origin of `request`'s mail links (see
 * `mailLinkOrigin`), through {@link sendNoticeMail}; an origin that cannot be told is reported
 * with `purpose`, and nothing is sent.
 */
export async function mailAccountNotice(
  notices: AccountNotices,
  request: Request,
  purpose: string,
  compose: (origin: string) => MailMessage,
): Promise<void> {
  let origin: string;
  try {
    origin = mailLinkOrigin(request, {
      appUrl: notices.appUrl,
      allowedOrigins: notices.allowedOrigins ?? [],
    });
  } catch (error) {
    notices.reportMailError(error, purpose);
    return;
  }
  await sendNoticeMail(notices.mailer, compose(origin), purpose, notices.reportMailError);
}
