import type { Mailer } from "@tessera/mail";

/**
 * Stands for a mailer an app means to have but whose delivery this deployment did not configure
 * (production without `MAIL_ADAPTER`): see {@link missingMailer}.
 */
export interface MissingMailer {
  /** The setting that would configure delivery, named in the 500 answer. */
  readonly missingSetting: string;
}

/**
 * Where account mails would go in an app that sends them, in a deployment that forgot to set up
 * delivery: the pages keep offering sign-in links, password reset and confirmation, and the
 * routes that send one answer 500 in plain text naming `setting`, so the mistake shows at once.
 * An app that sends no mail at all omits `mailer` instead: then nothing is offered.
 */
export function missingMailer(setting: string): MissingMailer {
  return { missingSetting: setting };
}

/** The plain-text 500 of a mail route under {@link missingMailer}, naming its setting. */
export function noMailerMessage(setting: string): string {
  return `Email cannot be sent: no mail delivery is configured (${setting}).`;
}

/** Whether `mailer` delivers mail (a {@link MissingMailer} or none does not). */
export function deliversMail(mailer: Mailer | MissingMailer | undefined): mailer is Mailer {
  return mailer !== undefined && !("missingSetting" in mailer);
}
