import type { MailMessage } from "./mailer.js";

/**
 * A mail as an outbox item keeps it: what the transport needs, without the idempotency key
 * (the item's own key is that).
 */
export interface QueuedMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string | undefined;
}

/** The queue mails go through in an outbox. */
export const MAIL_QUEUE = "mail";

/** The part of `message` an outbox item keeps. */
export function queuedMailOf(message: MailMessage): QueuedMail {
  const { to, subject, text, html } = message;
  return html === undefined ? { to, subject, text } : { to, subject, text, html };
}

/**
 * `payload` (an item read back from the outbox) as a mail, or undefined when it is not one:
 * a row written by something else, or by hand, must not reach a transport half-formed.
 */
export function parseQueuedMail(payload: unknown): QueuedMail | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const { to, subject, text, html } = payload as Record<string, unknown>;
  if (typeof to !== "string" || typeof subject !== "string" || typeof text !== "string") {
    return undefined;
  }
  if (html !== undefined && typeof html !== "string") return undefined;
  return html === undefined ? { to, subject, text } : { to, subject, text, html };
}
