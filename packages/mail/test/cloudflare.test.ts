import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { cloudflareMailer } from "../src/cloudflare.js";
import { MailDeliveryError } from "../src/mail-delivery-error.js";

/** Stands in for `EmailMessage` of `cloudflare:email`, which only workerd can construct. */
class RecordedEmailMessage {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly raw: string,
  ) {}
}

/** A `send_email` binding that keeps what it is given, as the binding's `send(message)` takes it. */
function recordingBinding() {
  const sent: RecordedEmailMessage[] = [];
  return {
    sent,
    binding: {
      async send(message: RecordedEmailMessage) {
        sent.push(message);
      },
    },
  };
}

const from = "Zoë de Notes <no-reply@notes.test>";
const clock = () => Date.parse("2026-11-26T12:34:56Z");

async function sendAndParse(message: Parameters<ReturnType<typeof cloudflareMailer>["send"]>[0]) {
  const { binding, sent } = recordingBinding();
  const mailer = cloudflareMailer({ binding, EmailMessage: RecordedEmailMessage, from, clock });
  await mailer.send(message);
  expect(sent).toHaveLength(1);
  return { envelope: sent[0]!, parsed: await simpleParser(sent[0]!.raw) };
}

describe("cloudflareMailer", () => {
  it("hands the binding an EmailMessage whose MIME holds the subject, the text and the HTML", async () => {
    const message = {
      to: "ada@example.com",
      subject: "Réinitialisez votre mot de passe — 🔑",
      text: "Bonjour Ada,\n\nOuvrez ce lien : http://localhost:3000/reset/abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\n",
      html: '<p>Bonjour Ada,</p>\n<p><a href="http://localhost:3000/reset/abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz">Réinitialiser</a></p>\n',
    };
    const { envelope, parsed } = await sendAndParse(message);
    expect(envelope.from).toBe("no-reply@notes.test");
    expect(envelope.to).toBe("ada@example.com");
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.text).toBe(message.text);
    expect(parsed.html).toBe(message.html);
    expect(parsed.from?.value).toEqual([{ name: "Zoë de Notes", address: "no-reply@notes.test" }]);
    expect(parsed.to).toMatchObject({ text: "ada@example.com" });
    expect(parsed.date?.toISOString()).toBe("2026-11-26T12:34:56.000Z");
    expect(parsed.messageId).toMatch(/^<[^<>@\s]+@notes\.test>$/);
    expect(envelope.raw).toMatch(
      /^Content-Type: multipart\/alternative; boundary="=_tessera_[0-9a-f]{32}"$/m,
    );
    expect(envelope.raw).toMatch(/^Subject: =\?UTF-8\?B\?/m);
  });

  it("writes CRLF line endings only, and no line longer than 76 characters in the parts", async () => {
    const { envelope } = await sendAndParse({
      to: "ada@example.com",
      subject: "Long lines",
      text: `${"x".repeat(300)}\nline two \n\tthird\r\nfourth\rfifth`,
      html: `<p>${"é".repeat(200)}</p>`,
    });
    expect(envelope.raw).not.toMatch(/[^\r]\n/);
    expect(envelope.raw).not.toMatch(/\r(?!\n)/);
    const body = envelope.raw.slice(envelope.raw.indexOf("\r\n\r\n"));
    for (const line of body.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
  });

  it("round-trips texts that hold the boundary's look, '=' signs, trailing spaces and lone dots", async () => {
    const hostile = [
      "--=_tessera_00000000000000000000000000000000\n=_tessera_\n--",
      "a = b\n=3D is not decoded twice\n==\n",
      "trailing spaces   \ntrailing tab\t\n.\n..\nFrom the start\n",
      `${"ü".repeat(100)} ${"🔑".repeat(40)}`,
    ];
    for (const text of hostile) {
      const { parsed } = await sendAndParse({
        to: "ada@example.com",
        subject: "Hostile",
        text,
        html: `<pre>${text}</pre>`,
      });
      expect(parsed.text ?? "").toBe(text.replace(/\r\n?/g, "\n"));
      expect(parsed.html).toBe(`<pre>${text}</pre>`);
    }
  });

  it("keeps a subject with line breaks on its one header, and folds a very long one", async () => {
    const injected = await sendAndParse({
      to: "ada@example.com",
      subject: "Hello\r\nBcc: eve@example.com",
      text: "Hi",
    });
    expect(injected.parsed.subject).toBe("Hello Bcc: eve@example.com");
    expect(injected.parsed.bcc).toBeUndefined();

    const long = "A rather long subject line ".repeat(40).trim();
    const folded = await sendAndParse({ to: "ada@example.com", subject: long, text: "Hi" });
    expect(folded.parsed.subject).toBe(long);
    for (const line of folded.envelope.raw.split("\r\n"))
      expect(line.length).toBeLessThanOrEqual(998);
  });

  it("sends a text-only mail as a single text/plain part", async () => {
    const { envelope, parsed } = await sendAndParse({
      to: "bob@example.com",
      subject: "Hi",
      text: "Hi Bob\n",
    });
    expect(envelope.raw).not.toContain("multipart");
    expect(envelope.raw).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect(parsed.text).toBe("Hi Bob\n");
    expect(parsed.html).toBe(false);
  });

  it("gives every attempt at one mail the same Message-ID, derived from its idempotency key", async () => {
    const message = { to: "ada@example.com", subject: "Hi", text: "Hi", idempotencyKey: "mail/42" };
    const first = await sendAndParse(message);
    const second = await sendAndParse(message);
    const other = await sendAndParse({ ...message, idempotencyKey: "mail/43" });
    const keyless = await sendAndParse({ to: "ada@example.com", subject: "Hi", text: "Hi" });
    expect(second.parsed.messageId).toBe(first.parsed.messageId);
    expect(other.parsed.messageId).not.toBe(first.parsed.messageId);
    expect(keyless.parsed.messageId).not.toBe(first.parsed.messageId);
    expect(first.envelope.raw).not.toContain("mail/42");
  });

  it("rejects with a retryable MailDeliveryError when the binding refuses", async () => {
    const refusal = new Error("destination address is not a verified address");
    const mailer = cloudflareMailer({
      binding: {
        async send() {
          throw refusal;
        },
      },
      EmailMessage: RecordedEmailMessage,
      from,
    });
    const error = (await mailer
      .send({ to: "ada@example.com", subject: "Hi", text: "Hi" })
      .catch((caught: unknown) => caught)) as MailDeliveryError;
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error.message).toBe(
      "Cloudflare's send_email binding refused the mail: destination address is not a verified address",
    );
    expect(error.retryable).toBe(true);
    expect(error.cause).toBe(refusal);
  });

  it("refuses missing options at creation, naming them", () => {
    const { binding } = recordingBinding();
    const build = (options: object) => () => cloudflareMailer(options as never);
    expect(build({ EmailMessage: RecordedEmailMessage, from })).toThrow(
      new TypeError(
        "cloudflareMailer: `binding` is missing: pass the send_email binding, such as env.EMAIL",
      ),
    );
    expect(build({ binding, from })).toThrow(
      new TypeError(
        'cloudflareMailer: `EmailMessage` is missing: pass EmailMessage from "cloudflare:email"',
      ),
    );
    expect(build({ binding, EmailMessage: RecordedEmailMessage })).toThrow(
      /^cloudflareMailer: `from` is missing/,
    );
    expect(build({ binding: {}, EmailMessage: RecordedEmailMessage, from })).toThrow(
      /^cloudflareMailer: `binding` has no `send` method/,
    );
  });
});
