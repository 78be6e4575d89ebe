import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Mail = typeof import("@tessera/mail");
type Resend = typeof import("@tessera/mail/resend");
type Postmark = typeof import("@tessera/mail/postmark");
type Ses = typeof import("@tessera/mail/ses");
type Cloudflare = typeof import("@tessera/mail/cloudflare");

const HTTP_ADAPTERS = ["@tessera/mail/resend", "@tessera/mail/postmark", "@tessera/mail/ses"];

export default {
  does: "send mails through the memory and log mailers, Resend, Postmark and SES (to a recording fetch) and a send_email binding",
  imports: () => ["@tessera/mail", ...HTTP_ADAPTERS, "@tessera/mail/cloudflare"],
  async run({ load, check }) {
    const { LogMailer, MemoryMailer, MailDeliveryError } = await load<Mail>("@tessera/mail");
    const memory = new MemoryMailer();
    const link = {
      to: "ada@example.com",
      subject: "Your sign-in link",
      text: "Open https://app.test/magic/abc\n",
    };
    await memory.send({ ...link, html: "<p>Open the link</p>" });
    await memory.send({ to: "bob@example.com", subject: "Welcome", text: "Hi Bob" });
    check(memory.sent.length === 2, "both mails are kept");
    const last = memory.last("ada@example.com");
    check(
      last?.subject === "Your sign-in link" &&
        last.text === link.text &&
        last.html === "<p>Open the link</p>",
      "the mail to ada reads back whole",
    );
    check(memory.last()?.to === "bob@example.com", "last() is the newest mail");
    memory.clear();
    check(memory.sent.length === 0 && memory.last() === undefined, "clear forgets every mail");

    const written: string[] = [];
    const log = new LogMailer({ write: (text) => written.push(text) });
    await log.send({
      ...link,
      subject: "Your sign-in\r\nBcc: eve@example.com",
      html: "<p>not printed</p>",
    });
    check(written.length === 1, "the log mailer writes each mail in one call");
    check(
      written[0] ===
        "--- mail ---\nTo: ada@example.com\nSubject: Your sign-in Bcc: eve@example.com\n\nOpen https://app.test/magic/abc\n--- end ---",
      "the log shows To, a one-line Subject and the text part, not the HTML",
    );

    // The HTTP adapters, each against a fetch that records the request and answers as the
    // provider would: a 503 first, to go through the retry policy's timer on this runtime.
    const requests: Request[] = [];
    const fetch = async (request: Request) => {
      requests.push(request);
      return requests.length % 2 === 1
        ? new Response('{"message":"try later"}', { status: 503 })
        : new Response("{}", { status: 200 });
    };
    const retry = { baseDelayMs: 1 };
    const from = "no-reply@app.test";
    const mail = { ...link, html: "<p>Open</p>", idempotencyKey: "mail-1" };
    const { resendMailer } = await load<Resend>("@tessera/mail/resend");
    await resendMailer({ apiKey: "re_smoke", from, fetch, retry }).send(mail);
    const { postmarkMailer } = await load<Postmark>("@tessera/mail/postmark");
    await postmarkMailer({ serverToken: "pm-smoke", from, fetch, retry }).send(mail);
    const { sesMailer } = await load<Ses>("@tessera/mail/ses");
    await sesMailer({
      region: "eu-west-1",
      accessKeyId: "AKIASMOKE",
      secretAccessKey: "smoke",
      from,
      fetch,
      retry,
    }).send(mail);
    check(requests.length === 6, "each HTTP adapter retried its 503 once");
    check(
      requests[1]?.url === "https://api.resend.com/emails" &&
        requests[1].headers.get("Idempotency-Key") === "mail-1" &&
        requests[1].headers.get("User-Agent") === "tessera-mail",
      "Resend gets POST /emails with the idempotency key and a User-Agent",
    );
    check(requests[3]?.url === "https://api.postmarkapp.com/email", "Postmark gets POST /email");
    check(
      requests[5]?.url === "https://email.eu-west-1.amazonaws.com/v2/email/outbound-emails" &&
        /^AWS4-HMAC-SHA256 Credential=AKIASMOKE\/\d{8}\/eu-west-1\/ses\/aws4_request, /.test(
          requests[5].headers.get("Authorization") ?? "",
        ),
      "SES gets a SigV4-signed SendEmail",
    );
    const refused = await resendMailer({
      apiKey: "re_smoke",
      from,
      fetch: async () =>
        new Response('{"name":"validation_error","message":"Invalid `to`"}', { status: 422 }),
    })
      .send(mail)
      .catch((error: unknown) => error);
    check(
      refused instanceof MailDeliveryError && refused.message.includes("Invalid `to`"),
      "a 422 rejects with the provider's message",
    );

    const handed: { from: string; to: string; raw: string }[] = [];
    const { cloudflareMailer } = await load<Cloudflare>("@tessera/mail/cloudflare");
    const cloudflare = cloudflareMailer({
      binding: {
        send: async (message: { from: string; to: string; raw: string }) =>
          void handed.push(message),
      },
      EmailMessage: class {
        constructor(
          readonly from: string,
          readonly to: string,
          readonly raw: string,
        ) {}
      },
      from: "Zoë <no-reply@app.test>",
    });
    await cloudflare.send({ ...mail, subject: "Réinitialiser" });
    check(
      handed.length === 1 &&
        handed[0]!.from === "no-reply@app.test" &&
        handed[0]!.raw.includes("Subject: =?UTF-8?B?UsOpaW5pdGlhbGlzZXI=?=") &&
        handed[0]!.raw.includes("Content-Type: multipart/alternative;"),
      "the binding gets a MIME message with an encoded subject and both parts",
    );
  },
} satisfies RuntimeSmoke;
