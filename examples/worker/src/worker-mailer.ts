import { EmailMessage } from "cloudflare:email";
import { LogMailer, type Mailer } from "@tessera/mail";
import { cloudflareMailer, type SendEmailBinding } from "@tessera/mail/cloudflare";
import { type AppConfig, ConfigError } from "../../app/src/config.js";
import { createProviderMailer } from "../../app/src/provider-mailer.js";

/** The name of the `send_email` binding in wrangler.json, for `MAIL_ADAPTER=cloudflare`. */
export const SEND_EMAIL_BINDING = "EMAIL";

/**
 * The Worker's mailer for `MAIL_ADAPTER`: `log` prints, `resend`, `postmark` and `ses` call the
 * provider over fetch (as on Node), `cloudflare` hands the mail to the `send_email` binding.
 * Undefined when none is set (production: the mail routes answer 500).
 * @throws {ConfigError} for `smtp` (no TCP sockets here) and for `cloudflare` without the binding.
 */
export function createWorkerMailer(
  config: AppConfig,
  binding: SendEmailBinding | undefined,
): Mailer | undefined {
  switch (config.mailAdapter) {
    case "log":
      return new LogMailer();
    case "smtp":
      throw new ConfigError(
        "MAIL_ADAPTER=smtp needs TCP sockets; on Workers use MAIL_ADAPTER=resend, postmark, ses, cloudflare or log",
      );
    case "cloudflare":
      if (binding === undefined) {
        throw new ConfigError(
          `MAIL_ADAPTER=cloudflare needs the send_email binding ${SEND_EMAIL_BINDING} (wrangler.json's send_email)`,
        );
      }
      return cloudflareMailer({ binding, EmailMessage, from: config.mailFrom });
    default:
      return createProviderMailer(config);
  }
}
