import type { Mailer, MailMessage } from "./mailer.js";

/** Options of {@link LogMailer}. */
export interface LogMailerOptions {
  /**
   * Receives each mail as one text of several lines, without a trailing newline (like an
   * argument of `console.log`, the default, which writes to standard output on Node).
   */
  readonly write?: ((text: string) => void) | undefined;
}

/**
 * Formats a mail as {@link LogMailer} prints it:
 *
 * ```text
 * --- mail ---
 * To: ada@example.com
 * Subject: Your sign-in link
 *
 * <the text part, as is: never wrapped, so links stay whole on their lines>
 * --- end ---
 * ```
 *
 * Line breaks inside To or Subject become spaces, so a header cannot fake more lines.
 */
export function formatLoggedMail(message: MailMessage): string {
  return [
    "--- mail ---",
    `To: ${singleLine(message.to)}`,
    `Subject: ${singleLine(message.subject)}`,
    "",
    message.text.replace(/\r\n?/g, "\n").replace(/\n$/, ""),
    "--- end ---",
  ].join("\n");
}

/**
 * Prints mails instead of sending them (`MAIL_ADAPTER=log`): To, Subject and the text part in
 * the format of {@link formatLoggedMail}; the HTML part is left out. Links in account mails are
 * working secrets, so use it only where the output is as private as the mailbox would be.
 *
 * @example
 * ```ts
 * import { LogMailer, type Mailer } from "@tessera/mail";
 * import { createSmtpMailer } from "@tessera/mail/smtp";
 *
 * const mailer: Mailer = process.env.SMTP_URL
 *   ? createSmtpMailer({ url: process.env.SMTP_URL, from: "Notes <no-reply@app.example>" })
 *   : new LogMailer(); // development: the mail on standard output
 * await mailer.send({ to: "ada@example.com", subject: "Hello", text: "Hi Ada\n" });
 * ```
 */
export class LogMailer implements Mailer {
  readonly #write: (text: string) => void;

  constructor(options: LogMailerOptions = {}) {
    this.#write = options.write ?? ((text) => console.log(text));
  }

  async send(message: MailMessage): Promise<void> {
    this.#write(formatLoggedMail(message));
  }
}

function singleLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ");
}
