import type { HttpMailerOptions } from "./http-mailer-options.js";
import { resolveBaseUrl, resolveFetch } from "./http-mailer-options.js";
import type { Mailer, MailMessage, SendOptions } from "./mailer.js";
import { callProvider, USER_AGENT } from "./provider-call.js";
import { resolveRetryPolicy } from "./retry-policy.js";
import { requireTextOption } from "./text-option.js";

/** Options of {@link postmarkMailer}. */
export interface PostmarkMailerOptions extends HttpMailerOptions {
  /** The server's API token (`POSTMARK_SERVER_TOKEN`), sent as `X-Postmark-Server-Token`. */
  readonly serverToken: string;
  /** The message stream (default `outbound`, Postmark's transactional stream). */
  readonly messageStream?: string | undefined;
}

const FN = "postmarkMailer";

/**
 * A {@link Mailer} that sends through Postmark's `POST /email` (`TextBody` and `HtmlBody`).
 * Postmark has no idempotency key: the mail's `idempotencyKey` is not sent, so an attempt whose
 * answer was lost and is retried can deliver the mail twice.
 * @throws TypeError at creation, naming a missing or unusable option.
 */
export function postmarkMailer(options: PostmarkMailerOptions): Mailer {
  const token = requireTextOption(
    FN,
    options,
    "serverToken",
    "pass the Postmark server token (POSTMARK_SERVER_TOKEN)",
  );
  const from = requireTextOption(
    FN,
    options,
    "from",
    "pass the sender, such as no-reply@app.example (MAIL_FROM)",
  );
  const stream =
    options.messageStream === undefined
      ? "outbound"
      : requireTextOption(
          FN,
          options,
          "messageStream",
          "pass a message stream's ID, or leave it out for outbound",
        );
  const url = `${resolveBaseUrl(FN, options, "https://api.postmarkapp.com")}/email`;
  const send = resolveFetch(FN, options);
  const policy = resolveRetryPolicy(FN, options.retry);
  return {
    async send(message: MailMessage, options?: SendOptions): Promise<void> {
      const body = JSON.stringify({
        From: from,
        To: message.to,
        Subject: message.subject,
        TextBody: message.text,
        ...(message.html === undefined ? {} : { HtmlBody: message.html }),
        MessageStream: stream,
      });
      const headers = new Headers({
        Accept: "application/json",
        "Content-Type": "application/json",
        "X-Postmark-Server-Token": token,
        "User-Agent": USER_AGENT,
      });
      await callProvider(
        {
          provider: "Postmark",
          send: (signal) => send(new Request(url, { method: "POST", headers, body, signal })),
          errorMessageOf: postmarkErrorMessage,
          secrets: [token],
        },
        policy,
        options?.signal,
      );
    },
  };
}

/** Postmark's error body: `{"ErrorCode":300,"Message":"…"}`. */
function postmarkErrorMessage(body: unknown): string | undefined {
  const { ErrorCode: code, Message: message } = (body ?? {}) as {
    ErrorCode?: unknown;
    Message?: unknown;
  };
  if (typeof message !== "string") return undefined;
  return typeof code === "number" ? `${message} (ErrorCode ${code})` : message;
}
