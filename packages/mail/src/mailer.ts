/** One mail: a single recipient, a subject, a plain-text part and an optional HTML part. */
export interface MailMessage {
  /** The recipient's address (one address; account mails go to one user). */
  readonly to: string;
  readonly subject: string;
  /** The plain-text part: always present, and what the log adapter prints. */
  readonly text: string;
  /** An HTML alternative of `text`; adapters that send send both as multipart/alternative. */
  readonly html?: string | undefined;
  /**
   * The same key on every attempt to send this one mail (an outbox passes its row's key), so a
   * retry after a lost answer does not deliver it twice where the provider can tell. Resend
   * sends it as `Idempotency-Key`; the SMTP and Cloudflare adapters derive the `Message-ID`
   * from it; Postmark and SES have no such feature (see the package README).
   */
  readonly idempotencyKey?: string | undefined;
}

/** Options of {@link Mailer.send}. */
export interface SendOptions {
  /**
   * Ends the attempt when it aborts (an outbox's attempt deadline): the request, the wait for
   * its answer and any retry. Adapters that cannot be interrupted (SMTP) ignore it.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Sends mail. The sender address belongs to the adapter's configuration, not to the message.
 * `send` resolves once the mail is handed over (or recorded) and rejects when it could not be:
 * a rejection means broken infrastructure, never a bad recipient the caller should hide.
 */
export interface Mailer {
  send(message: MailMessage, options?: SendOptions): Promise<void>;
  /**
   * True when `send` only stores the mail for later delivery (an outbox): it resolves as soon as
   * the mail is durably stored, so callers await it and answer only once the mail is safe.
   * Otherwise `send` may wait on a provider, and request handlers do not wait for it.
   */
  readonly stores?: boolean | undefined;
}
