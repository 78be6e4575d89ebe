import {
  FinalDeliveryError,
  MAIL_RETRY_SCHEDULE,
  type OutboxItem,
  type OutboxRunner,
  type OutboxRunnerOptions,
  runOutbox,
} from "@tessera/outbox";
import { MailDeliveryError } from "./mail-delivery-error.js";
import type { Mailer } from "./mailer.js";
import { MAIL_QUEUE, parseQueuedMail } from "./queued-mail.js";

/** Options of {@link mailSender}: those of `runOutbox`, the queue and the delivery aside. */
export interface MailSenderOptions<Writer>
  extends Omit<OutboxRunnerOptions<Writer>, "queue" | "deliver" | "schedule"> {
  /** The mailer that really sends: SMTP, Resend, Postmark, SES, Cloudflare (or a memory one). */
  readonly transport: Mailer;
  /** When to try again (default `MAIL_RETRY_SCHEDULE`: 10 s, 1 min, 5 min, 30 min, 2 h, 6 h). */
  readonly schedule?: OutboxRunnerOptions<Writer>["schedule"];
  /**
   * Told, in one line, of each mail given up on at once (a provider's final answer); default
   * `console.error`. The line holds the provider's message and the item's id, never the mail.
   */
  readonly log?: (line: string) => void;
}

/**
 * The background half of {@link outboxMailer}: a runner of the outbox's `mail` queue that hands
 * each mail to `transport` with the item's key as `idempotencyKey` (the same on every attempt).
 * A `MailDeliveryError` that is not `retryable` (a 4xx other than 429, an SMTP 5xx) fails the
 * mail for good at once, keeping the provider's message; any other rejection is tried again on
 * the schedule, no sooner than the provider's `retryAfterMs`. `start()` it with the process and
 * `await stop()` before closing the database; or call `drain()` from a cron trigger.
 *
 * @throws {TypeError} naming a missing or wrong option.
 * @example
 * ```ts
 * import { MemoryMailer } from "@tessera/mail";
 * import { mailSender, outboxMailer } from "@tessera/mail/outbox";
 * import { MemoryOutbox } from "@tessera/outbox";
 *
 * const outbox = new MemoryOutbox(); // a SqlOutbox on the app's database in production
 * const transport = new MemoryMailer(); // resendMailer(…), createSmtpMailer(…), …
 * const sender = mailSender({ outbox, transport });
 * sender.start();
 * await outboxMailer({ outbox, writer: outbox }).send({ to: "ada@example.com", subject: "Hi", text: "Hi" });
 * await sender.stop(); // at shutdown, before closing the database
 * ```
 */
export function mailSender<Writer>(options: MailSenderOptions<Writer>): OutboxRunner {
  const { transport, log = console.error, schedule = MAIL_RETRY_SCHEDULE, ...runner } = options;
  if (typeof transport?.send !== "function") {
    throw new TypeError("mailSender: `transport` is missing: pass the Mailer that sends");
  }
  const deliver = async (item: OutboxItem) => {
    const mail = parseQueuedMail(item.payload);
    if (!mail) {
      log(`Mail ${item.id} of the outbox given up on: its payload is not a mail`);
      throw new FinalDeliveryError("the outbox item is not a mail (to, subject, text, html)");
    }
    try {
      await transport.send({ ...mail, idempotencyKey: item.key });
    } catch (error) {
      if (error instanceof MailDeliveryError && !error.retryable) {
        log(`Mail ${item.id} of the outbox given up on: ${error.message}`);
        throw new FinalDeliveryError(error.message, { cause: error });
      }
      throw error;
    }
  };
  return runOutbox({ ...runner, queue: MAIL_QUEUE, schedule, deliver });
}
