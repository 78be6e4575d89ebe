import { defineMessages, type MessageIdOf } from "@tessera/core";
import { adminTexts } from "./admin/admin-messages.js";
import { auditTexts } from "./audit/audit-messages.js";
import { captchaTexts } from "./captcha/captcha-messages.js";
import { devicesTexts } from "./devices/devices-messages.js";
import { emailChangeTexts } from "./email-change/email-change-messages.js";
import { emailCodeTexts } from "./email-code/email-code-messages.js";
import { emailLinkTexts } from "./email-link/email-link-messages.js";
import { passkeyTexts } from "./passkey/passkey-messages.js";
import { passwordTexts } from "./password/password-messages.js";
import { profileTexts } from "./profile/profile-messages.js";
import { secondFactorTexts } from "./second-factor/second-factor-messages.js";
import { signInTexts } from "./sign-in/sign-in-messages.js";
import { userTexts } from "./users/user-messages.js";

/**
 * Every message `@tessera/accounts` writes for a person, in English (the spec's exact strings):
 * JSON messages, the pages' text, flashes and the account mails. A request's `context.locale`
 * picks the language; pass `accountMessages.english`'s ids to a translator. Diagnostics for
 * developers (a malformed body) and operators (no mailer configured) stay English.
 */
export const accountMessages = defineMessages({
  ...userTexts,
  ...signInTexts,
  ...secondFactorTexts,
  ...emailCodeTexts,
  ...passkeyTexts,
  ...emailLinkTexts,
  ...devicesTexts,
  ...passwordTexts,
  ...emailChangeTexts,
  ...profileTexts,
  ...captchaTexts,
  ...auditTexts,
  ...adminTexts,
});

/** An id of {@link accountMessages}. */
export type AccountMessageId = MessageIdOf<typeof accountMessages>;
