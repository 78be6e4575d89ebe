import type { Outbox, OutboxItem } from "@tessera/outbox";
import { MAIL_QUEUE, parseQueuedMail } from "../queued-mail.js";

/** How many mails the preview shows: the newest ones. */
export const MAIL_PREVIEW_LIMIT = 100;

/** Where a mail stands, as the preview says it: waiting, handed to the provider, given up on. */
export type PreviewStatus = "pending" | "sent" | "failed";

/** One mail of the outbox as the preview shows it. */
export interface PreviewedMail {
  /** The outbox item's key: the mail's address in the preview. */
  readonly key: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The HTML part, or null for a text-only mail. */
  readonly html: string | null;
  /** When the app sent it (stored it in the outbox), as ISO 8601. */
  readonly sentAt: string;
  readonly status: PreviewStatus;
  /** Why the last attempt failed, or null. */
  readonly lastError: string | null;
}

/** One mail of the preview's JSON list (`GET /dev/mail.json`). */
export interface PreviewedMailJson {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
  /** {@link PreviewedMail.sentAt}. */
  readonly sent_at: string;
  readonly status: PreviewStatus;
}

const STATUS: Record<OutboxItem["status"], PreviewStatus> = {
  pending: "pending",
  done: "sent",
  failed: "failed",
};

/** The outbox item as a previewed mail, or undefined when its payload is not a mail. */
export function previewedMail(item: OutboxItem): PreviewedMail | undefined {
  const mail = parseQueuedMail(item.payload);
  if (!mail) return undefined;
  return {
    key: item.key,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    sentAt: new Date(item.createdAt).toISOString(),
    status: STATUS[item.status],
    lastError: item.lastError,
  };
}

/**
 * The newest mails of the outbox's `mail` queue (the one `outboxMailer` writes), newest first,
 * {@link MAIL_PREVIEW_LIMIT} at most; items that are not mails are left out.
 */
export async function previewedMails(outbox: Outbox<unknown>): Promise<PreviewedMail[]> {
  const items = await outbox.list(MAIL_QUEUE, { limit: MAIL_PREVIEW_LIMIT });
  return items.flatMap((item) => previewedMail(item) ?? []);
}

/** The mail as the JSON list gives it (for end-to-end tests: `to`, `text`, `sent_at`…). */
export function previewedMailJson(mail: PreviewedMail): PreviewedMailJson {
  return {
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    sent_at: mail.sentAt,
    status: mail.status,
  };
}
