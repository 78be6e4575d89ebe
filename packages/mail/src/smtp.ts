import { loadOnFirstUse } from "@tessera/core";
import { MailDeliveryError } from "./mail-delivery-error.js";
import { parseMailbox } from "./mailbox.js";
import type { Mailer, MailMessage } from "./mailer.js";
import { messageIdFor } from "./message-id.js";

/** Options of {@link createSmtpMailer}. */
export interface SmtpMailerOptions {
  /**
   * The server, as `SMTP_URL`: `smtp://user:pass@host:587` (upgraded with STARTTLS when the
   * server offers it) or `smtps://user:pass@host:465` (TLS from the start). Credentials are
   * percent-encoded; query parameters set nodemailer options (e.g. `?pool=true`).
   */
  readonly url: string;
  /** The From of every mail, e.g. `Tessera <no-reply@example.com>`; also the envelope sender. */
  readonly from: string;
}

/** A {@link Mailer} over SMTP. `close()` ends pooled connections at shutdown. */
export interface SmtpMailer extends Mailer {
  close(): void;
}

// nodemailer waits minutes by default; a request that sends a mail should fail much sooner.
const TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Sends mail through an SMTP server with nodemailer: multipart/alternative when the message has
 * an HTML part. The mail's `idempotencyKey` becomes its `Message-ID`, the same on every attempt.
 * `send` rejects with a {@link MailDeliveryError} naming the server (never its credentials) when
 * the mail could not be handed over; it is `retryable` unless the server answered 5xx.
 * @throws RangeError at creation when `url` is not an smtp: or smtps: URL, or `from` is empty.
 */
export function createSmtpMailer(options: SmtpMailerOptions): SmtpMailer {
  const server = describeServer(options.url);
  if (options.from.trim() === "") throw new RangeError("the From address of mails is empty");
  const senderAddress = parseMailbox(options.from).address;
  // nodemailer costs a process about 0.1 s of start-up and 13 MiB: imported by the first mail
  // sent, not by an app that may send none for hours. The settings are checked above, at once.
  const loadTransport = loadOnFirstUse(async () => {
    const { createTransport } = await import("nodemailer");
    return createTransport({ ...TIMEOUTS_MS, url: options.url });
  });
  // The transport the last send used (or is loading), for close().
  let transport: ReturnType<typeof loadTransport> | undefined;
  return {
    async send(message: MailMessage): Promise<void> {
      try {
        transport = loadTransport();
        const loaded = await transport;
        await loaded.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
          messageId: await messageIdFor(senderAddress, message.idempotencyKey),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // A 5xx reply is the server's final word; 4xx and lost connections may pass later.
        const code = (error as { responseCode?: unknown } | null)?.responseCode;
        throw new MailDeliveryError(`SMTP delivery through ${server} failed: ${reason}`, {
          cause: error,
          retryable: !(typeof code === "number" && code >= 500),
          ...(typeof code === "number" ? { status: code } : {}),
        });
      }
    },
    close() {
      // Nothing to end when no mail was sent; a transport still loading ends once loaded (a
      // load that failed has nothing to end, and its send has reported the failure).
      void transport?.then(
        (loaded) => loaded.close(),
        () => {},
      );
    },
  };
}

/** `smtp://host:port` of an SMTP URL, without credentials, for error messages. */
function describeServer(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError("SMTP_URL is not a URL (expected smtp://user:pass@host:port)");
  }
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
    throw new RangeError("SMTP_URL must start with smtp:// or smtps://");
  }
  return `${parsed.protocol}//${parsed.host}`;
}
