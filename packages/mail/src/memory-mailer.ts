import type { Mailer, MailMessage } from "./mailer.js";

/**
 * Keeps every mail in memory instead of sending it: for tests, the app's and its users'.
 * Read the mails with `sent` (oldest first) or `last(to)`.
 */
export class MemoryMailer implements Mailer {
  readonly #sent: MailMessage[] = [];

  /** Every mail sent since creation or the last `clear()`, oldest first. */
  get sent(): readonly MailMessage[] {
    return this.#sent;
  }

  async send(message: MailMessage): Promise<void> {
    // A copy, so a caller that reuses its object cannot change what was "sent".
    this.#sent.push({ ...message });
  }

  /** The most recent mail, or the most recent one to exactly this address; undefined if none. */
  last(to?: string): MailMessage | undefined {
    return this.#sent.findLast((message) => to === undefined || message.to === to);
  }

  /** Forgets every mail sent so far. */
  clear(): void {
    this.#sent.length = 0;
  }
}
