import { requireObjectOption } from "@tessera/core";
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
  readonly schedule?: OutboxRunnerOptions<Writer>["schedule"] | undefined;
  /**
   * Told, in one line, of each mail given up on: at once on a provider's final answer, or once
   * the schedule is spent; and of each `Retry-After` longer than the schedule's longest step,
   * cut to that step. Default `console.error`. The lines hold the item's id, its attempts and
   * the last error (the provider's message) or the wait asked, never the mail or its key.
   */
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * The background half of {@link outboxMailer}: a runner of the outbox's `mail` queue that hands
 * each mail to `transport` with the item's key as `idempotencyKey` (the same on every attempt).
 * A `MailDeliveryError` that is not `retryable` (a 4xx other than 429, an SMTP 5xx) fails the
 * mail for good at once, keeping the provider's message; any other rejection is tried again on
 * the schedule, no sooner than the provider's `retryAfterMs` (at most the schedule's longest
 * step). Each attempt has one deadline (`attemptTimeoutMs`, default 30 s), passed to the
 * transport as its `signal`. `start()` it with the process and
 * `await stop()` before closing the database; or call `drain()` from a cron trigger.
 *
 * @throws {TypeError} naming a missing or wrong option (`transport` without `send`).
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
  requireObjectOption("mailSender", options, "transport", ["send"], "pass the Mailer that sends");
  const { transport, log = console.error, schedule = MAIL_RETRY_SCHEDULE, ...runner } = options;
  const deliver = async (item: OutboxItem, signal: AbortSignal) => {
    const mail = parseQueuedMail(item.payload);
    if (!mail) {
      throw new FinalDeliveryError("the outbox item is not a mail (to, subject, text, html)");
    }
    try {
      await transport.send({ ...mail, idempotencyKey: item.key }, { signal });
    } catch (error) {
      if (error instanceof MailDeliveryError && !error.retryable) {
        throw new FinalDeliveryError(error.message, { cause: error });
      }
      throw error;
    }
  };
  const onFailed = (item: OutboxItem, error: string) => {
    const attempts = item.attempts === 1 ? "1 attempt" : `${item.attempts} attempts`;
    log(`Mail ${item.id} of the outbox given up on after ${attempts}: ${error}`);
    runner.onFailed?.(item, error);
  };
  return runOutbox({ ...runner, queue: MAIL_QUEUE, schedule, deliver, onFailed, log });
}
