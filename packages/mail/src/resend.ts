import type { HttpMailerOptions } from "./http-mailer-options.js";
import { resolveBaseUrl, resolveFetch } from "./http-mailer-options.js";
import type { Mailer, MailMessage, SendOptions } from "./mailer.js";
import { callProvider, USER_AGENT } from "./provider-call.js";
import { resolveRetryPolicy } from "./retry-policy.js";
import { requireTextOption } from "./text-option.js";

/** Options of {@link resendMailer}. */
export interface ResendMailerOptions extends HttpMailerOptions {
  /** The API key (`RESEND_API_KEY`, `re_…`), sent as `Authorization: Bearer`. */
  readonly apiKey: string;
}

const FN = "resendMailer";

/**
 * A {@link Mailer} that sends through Resend's `POST /emails` (text and HTML parts), with the
 * mail's `idempotencyKey` as `Idempotency-Key` so a retried mail is delivered once. Retries per
 * `retry`; rejects with a `MailDeliveryError` holding Resend's message, never the key.
 * @throws TypeError at creation, naming a missing or unusable option.
 */
export function resendMailer(options: ResendMailerOptions): Mailer {
  const apiKey = requireTextOption(
    FN,
    options,
    "apiKey",
    "pass the Resend API key (RESEND_API_KEY)",
  );
  const from = requireTextOption(
    FN,
    options,
    "from",
    "pass the sender, such as no-reply@app.example (MAIL_FROM)",
  );
  const url = `${resolveBaseUrl(FN, options, "https://api.resend.com")}/emails`;
  const send = resolveFetch(FN, options);
  const policy = resolveRetryPolicy(FN, options.retry);
  return {
    async send(message: MailMessage, options?: SendOptions): Promise<void> {
      const body = JSON.stringify({
        from,
        to: [message.to],
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
      });
      const headers = new Headers({
        Authorization: `Bearer ${apiKey}`,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
      });
      if (message.idempotencyKey !== undefined)
        headers.set("Idempotency-Key", message.idempotencyKey);
      await callProvider(
        {
          provider: "Resend",
          send: (signal) => send(new Request(url, { method: "POST", headers, body, signal })),
          errorMessageOf: resendErrorMessage,
          secrets: [apiKey],
        },
        policy,
        options?.signal,
      );
    },
  };
}

/** Resend's error body: `{"statusCode":422,"name":"validation_error","message":"…"}`. */
function resendErrorMessage(body: unknown): string | undefined {
  const { name, message } = (body ?? {}) as { name?: unknown; message?: unknown };
  if (typeof message !== "string") return undefined;
  return typeof name === "string" ? `${message} (${name})` : message;
}
