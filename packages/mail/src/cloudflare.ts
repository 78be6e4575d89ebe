import { type Clock, requireFunctionOption, requireObjectOption, systemClock } from "@tessera/core";
import { MailDeliveryError } from "./mail-delivery-error.js";
import { parseMailbox } from "./mailbox.js";
import type { Mailer, MailMessage } from "./mailer.js";
import { messageIdFor } from "./message-id.js";
import { buildMimeMessage } from "./mime-message.js";
import { requireTextOption } from "./text-option.js";

/**
 * A Worker's `send_email` binding (`env.EMAIL`), as far as this adapter uses it. `never` lets
 * the Workers types' `SendEmail` (and any test double) fit without this package naming them.
 */
export interface SendEmailBinding {
  send(message: never): Promise<unknown>;
}

/** `EmailMessage` of `cloudflare:email`: (envelope sender, envelope recipient, raw MIME). */
export type EmailMessageConstructor = new (from: string, to: string, raw: string) => unknown;

/** Options of {@link cloudflareMailer}. */
export interface CloudflareMailerOptions {
  /** The `send_email` binding, such as `env.EMAIL`. */
  readonly binding: SendEmailBinding;
  /**
   * `EmailMessage` from `import { EmailMessage } from "cloudflare:email"`, which only workerd
   * can load: passed in, so this module imports on every runtime and tests give their own.
   */
  readonly EmailMessage: EmailMessageConstructor;
  /** The From of every mail (`MAIL_FROM`); its address is also the envelope sender. */
  readonly from: string;
  /** Dates the mails (default the system clock). */
  readonly clock?: Clock | undefined;
}

const FN = "cloudflareMailer";

/**
 * A {@link Mailer} over a Cloudflare Workers `send_email` binding: builds the MIME message (text
 * and HTML as multipart/alternative) and hands it to `binding.send`. The mail's
 * `idempotencyKey` becomes its `Message-ID`. Not retried here: a rejection is a retryable
 * `MailDeliveryError` for the caller (an outbox) to try again later.
 * @throws TypeError at creation, naming a missing or unusable option.
 */
export function cloudflareMailer(options: CloudflareMailerOptions): Mailer {
  requireObjectOption(
    FN,
    options,
    "binding",
    ["send"],
    "pass the send_email binding, such as env.EMAIL",
  );
  requireFunctionOption(FN, options, "EmailMessage", 'pass EmailMessage from "cloudflare:email"');
  const from = parseMailbox(
    requireTextOption(
      FN,
      options,
      "from",
      "pass the sender, such as no-reply@app.example (MAIL_FROM)",
    ),
  );
  const clock = options.clock ?? systemClock;
  const { binding, EmailMessage } = options;
  return {
    async send(message: MailMessage): Promise<void> {
      const raw = buildMimeMessage({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
        messageId: await messageIdFor(from.address, message.idempotencyKey),
        date: new Date(clock()),
      });
      try {
        await binding.send(new EmailMessage(from.address, message.to, raw) as never);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new MailDeliveryError(`Cloudflare's send_email binding refused the mail: ${reason}`, {
          cause: error,
          retryable: true,
        });
      }
    },
  };
}
