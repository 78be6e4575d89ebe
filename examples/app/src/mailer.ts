import { LogMailer, type Mailer } from "@tessera/mail";
import { createSmtpMailer } from "@tessera/mail/smtp";
import { type AppConfig, ConfigError } from "./config.js";
import { createProviderMailer } from "./provider-mailer.js";

/**
 * The mailer `MAIL_ADAPTER` names: `log` prints each mail to standard output, `smtp` sends it
 * to `SMTP_URL`, `resend`, `postmark` and `ses` to that provider's API. Undefined (production
 * without `MAIL_ADAPTER`): the mail routes answer 500.
 * @throws {ConfigError} for `cloudflare`, which needs the Worker's `send_email` binding.
 */
export function createAppMailer(config: AppConfig): Mailer | undefined {
  switch (config.mailAdapter) {
    case "log":
      return new LogMailer();
    case "smtp":
      return createSmtpMailer({ url: config.smtpUrl!, from: config.mailFrom });
    case "cloudflare":
      throw new ConfigError(
        "MAIL_ADAPTER=cloudflare needs the send_email binding of a Worker; on Node use resend, postmark, ses or smtp",
      );
    default:
      return createProviderMailer(config);
  }
}
