import { configurationError } from "@tessera/core";
import { awsRequestSigner } from "./aws-signer.js";
import type { HttpMailerOptions } from "./http-mailer-options.js";
import { resolveBaseUrl, resolveFetch } from "./http-mailer-options.js";
import { parseMailbox } from "./mailbox.js";
import { encodeMailboxHeader } from "./mailbox-header.js";
import type { Mailer, MailMessage, SendOptions } from "./mailer.js";
import { callProvider } from "./provider-call.js";
import { resolveRetryPolicy } from "./retry-policy.js";
import { requireTextOption } from "./text-option.js";

/** Options of {@link sesMailer}. */
export interface SesMailerOptions extends HttpMailerOptions {
  /** The SES region (`AWS_REGION`), such as `eu-west-1`: the endpoint and the signing scope. */
  readonly region: string;
  /** `AWS_ACCESS_KEY_ID`. */
  readonly accessKeyId: string;
  /** `AWS_SECRET_ACCESS_KEY`: signs requests, never sent, never in an error. */
  readonly secretAccessKey: string;
  /** `AWS_SESSION_TOKEN`, with temporary credentials. */
  readonly sessionToken?: string | undefined;
}

const FN = "sesMailer";

/**
 * A {@link Mailer} that sends through Amazon SES v2 `SendEmail` (`POST /v2/email/outbound-emails`,
 * Simple content with Text and Html parts), signed with SigV4 by aws4fetch: no AWS SDK. SES has
 * no idempotency key for SendEmail, so the mail's `idempotencyKey` is not sent.
 * @throws TypeError at creation, naming a missing or unusable option.
 */
export function sesMailer(options: SesMailerOptions): Mailer {
  const region = requireTextOption(
    FN,
    options,
    "region",
    "pass the SES region, such as eu-west-1 (AWS_REGION)",
  );
  if (!/^[a-z0-9-]+$/.test(region)) {
    throw configurationError(
      FN,
      "region",
      "is not a region name",
      "pass one such as eu-west-1 (AWS_REGION)",
    );
  }
  const accessKeyId = requireTextOption(FN, options, "accessKeyId", "pass AWS_ACCESS_KEY_ID");
  const secretAccessKey = requireTextOption(
    FN,
    options,
    "secretAccessKey",
    "pass AWS_SECRET_ACCESS_KEY",
  );
  const sessionToken =
    options.sessionToken === undefined
      ? undefined
      : requireTextOption(FN, options, "sessionToken", "pass AWS_SESSION_TOKEN, or leave it out");
  const from = requireTextOption(
    FN,
    options,
    "from",
    "pass the sender, such as no-reply@app.example (MAIL_FROM)",
  );
  // SES wants a non-ASCII display name as an RFC 2047 encoded-word, like a mail header.
  const fromEmailAddress = encodeMailboxHeader(parseMailbox(from));
  const url = `${resolveBaseUrl(FN, options, `https://email.${region}.amazonaws.com`)}/v2/email/outbound-emails`;
  const send = resolveFetch(FN, options);
  const policy = resolveRetryPolicy(FN, options.retry);
  const sign = awsRequestSigner(
    { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) },
    region,
    "ses",
  );
  return {
    async send(message: MailMessage, options?: SendOptions): Promise<void> {
      const utf8 = (data: string) => ({ Data: data, Charset: "UTF-8" });
      const body = JSON.stringify({
        FromEmailAddress: fromEmailAddress,
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: utf8(message.subject),
            Body: {
              Text: utf8(message.text),
              ...(message.html === undefined ? {} : { Html: utf8(message.html) }),
            },
          },
        },
      });
      await callProvider(
        {
          provider: "Amazon SES",
          // Signed at each attempt: the signature covers X-Amz-Date, which must be recent.
          send: async (signal) =>
            send(
              await sign(url, {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body,
                signal,
              }),
            ),
          errorMessageOf: sesErrorMessage,
          secrets: [secretAccessKey, ...(sessionToken === undefined ? [] : [sessionToken])],
        },
        policy,
        options?.signal,
      );
    },
  };
}

/**
 * SES v2's error body: `{"message":"…"}`, the error's name in the `x-amzn-ErrorType` header
 * (`MessageRejected:http://…`) or, on some answers, in `__type` (`com.amazonaws.sesv2#…`).
 */
function sesErrorMessage(body: unknown, headers: Headers): string | undefined {
  const fields = (body ?? {}) as { message?: unknown; Message?: unknown; __type?: unknown };
  const message = typeof fields.message === "string" ? fields.message : fields.Message;
  if (typeof message !== "string") return undefined;
  const type =
    typeof fields.__type === "string"
      ? fields.__type.split("#").pop()
      : headers.get("x-amzn-ErrorType")?.split(":")[0];
  return type ? `${message} (${type})` : message;
}
