import { LogMailer, type Mailer } from "@tessera/mail";
import { createSmtpMailer } from "@tessera/mail/smtp";
import type { AppConfig } from "./config.js";

/**
 * The mailer `MAIL_ADAPTER` names: `log` prints each mail to standard output, `smtp` sends it
 * to `SMTP_URL`. Undefined (production without `MAIL_ADAPTER`): the mail routes answer 500.
 */
export function createAppMailer(config: AppConfig): Mailer | undefined {
  if (config.mailAdapter === "log") return new LogMailer();
  if (config.mailAdapter === "smtp")
    return createSmtpMailer({ url: config.smtpUrl!, from: config.mailFrom });
  return undefined;
}
