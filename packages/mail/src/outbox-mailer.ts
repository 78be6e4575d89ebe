import type { Outbox } from "@tessera/outbox";
import type { Mailer, MailMessage } from "./mailer.js";
import { MAIL_QUEUE, queuedMailOf } from "./queued-mail.js";

/** Options of {@link outboxMailer}. */
export interface OutboxMailerOptions<Writer> {
  /** Where mails wait for {@link mailSender}: a `SqlOutbox` on the app's database. */
  readonly outbox: Outbox<Writer>;
  /** What each mail is written through: the database (or the memory outbox itself). */
  readonly writer: Writer;
}

/**
 * A {@link Mailer} that sends nothing itself: `send` writes the mail to the outbox's `mail`
 * queue and resolves once it is stored, so a request never waits on the provider; a
 * {@link mailSender} delivers it in the background. A message's `idempotencyKey` becomes the
 * item's key (the same key twice is one mail); without one, the item gets a random key. The
 * recipient is the item's fairness key: mails to one address (a mailbox whose server is slow, a
 * flood to one user) take at most their share of the sender's slots.
 *
 * @example
 * ```ts
 * import { outboxMailer } from "@tessera/mail/outbox";
 * import { outboxMigrations, SqlOutbox } from "@tessera/outbox/sql";
 * import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const database = openSqliteFile("data/app.db");
 * await applyMigrations(database, outboxMigrations);
 * const mailer = outboxMailer({ outbox: new SqlOutbox(database), writer: database });
 * await mailer.send({ to: "ada@example.com", subject: "Hi", text: "Hi Ada" }); // stored, not sent
 * ```
 */
export function outboxMailer<Writer>(options: OutboxMailerOptions<Writer>): Mailer {
  const { outbox, writer } = options;
  return {
    stores: true,
    async send(message: MailMessage) {
      await outbox.enqueue(writer, MAIL_QUEUE, queuedMailOf(message), {
        ...(message.idempotencyKey === undefined ? {} : { key: message.idempotencyKey }),
        fairnessKey: recipientShare(message.to),
      });
    },
  };
}

/**
 * The fairness key of a mail to `to`: the address as one mailbox (case aside), cut to what an
 * outbox key holds, with what no database stores (NUL, a lone surrogate) replaced: the mail is
 * stored whatever its address, and the transport judges the address.
 */
function recipientShare(to: string): string {
  const mailbox = to.trim().toLowerCase().slice(0, MAX_FAIRNESS_KEY_LENGTH);
  return (
    mailbox.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD") || "(no recipient)"
  );
}

// Half of a surrogate pair standing alone (with `u`, a whole pair is not matched).
const LONE_SURROGATE = /\p{Surrogate}/gu;

const MAX_FAIRNESS_KEY_LENGTH = 200;
