import type { Mailer } from "@tessera/mail";
import { postmarkMailer } from "@tessera/mail/postmark";
import { resendMailer } from "@tessera/mail/resend";
import { sesMailer } from "@tessera/mail/ses";
import type { AppConfig } from "./config.js";

/**
 * The HTTP provider's mailer `MAIL_ADAPTER` names (`resend`, `postmark`, `ses`), sending from
 * `MAIL_FROM` to `MAIL_API_URL` when set; undefined for any other adapter. Imports no `node:`
 * module: the Node app and the Worker share it. Expects settings loadConfig has checked: the
 * chosen provider's credentials are then there.
 */
export function createProviderMailer(config: AppConfig): Mailer | undefined {
  const shared = {
    from: config.mailFrom,
    ...(config.mailApiUrl === undefined ? {} : { baseUrl: config.mailApiUrl }),
  };
  const credentials = config.mailCredentials;
  switch (config.mailAdapter) {
    case "resend":
      return resendMailer({ ...shared, apiKey: credentials.resendApiKey! });
    case "postmark":
      return postmarkMailer({ ...shared, serverToken: credentials.postmarkServerToken! });
    case "ses":
      return sesMailer({
        ...shared,
        region: credentials.awsRegion!,
        accessKeyId: credentials.awsAccessKeyId!,
        secretAccessKey: credentials.awsSecretAccessKey!,
      });
    default:
      return undefined;
  }
}
