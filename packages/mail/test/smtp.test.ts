import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { MailDeliveryError } from "../src/mail-delivery-error.js";
import { createSmtpMailer } from "../src/smtp.js";

interface Received {
  readonly mailFrom: string | false;
  readonly rcptTo: string[];
  readonly user: unknown;
  readonly raw: string;
}

const servers: SMTPServer[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise<void>((done) => server.close(() => done()))),
  );
});

/** A real SMTP server on 127.0.0.1 (no TLS) that accepts `user` / `p@ss` and keeps each mail. */
async function startServer(extra: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "user" && auth.password === "p@ss") callback(null, { user: "user" });
      else
        callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const { mailFrom } = session.envelope;
        received.push({
          mailFrom: mailFrom === false ? false : mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((address) => address.address),
          user: session.user,
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
    ...extra,
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.server.address() as AddressInfo;
  return { port, received };
}

const from = "Tessera <no-reply@tessera.test>";
const message = {
  to: "ada@example.com",
  subject: "Your sign-in link",
  text: "Open this link to sign in:\n\nhttp://localhost:3000/magic_link/abc\n",
  html: '<p>Open this link to sign in:</p>\n<p><a href="http://localhost:3000/magic_link/abc">link</a></p>\n',
};

describe("createSmtpMailer", () => {
  it("delivers text and HTML as multipart/alternative, authenticated, with the right envelope", async () => {
    const { port, received } = await startServer();
    const mailer = createSmtpMailer({ url: `smtp://user:p%40ss@127.0.0.1:${port}`, from });
    await mailer.send(message);

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail).toMatchObject({
      mailFrom: "no-reply@tessera.test",
      rcptTo: ["ada@example.com"],
      user: "user",
    });
    expect(mail!.raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    const parsed = await simpleParser(mail!.raw);
    expect(parsed.subject).toBe("Your sign-in link");
    expect(parsed.from?.text).toBe('"Tessera" <no-reply@tessera.test>');
    expect(parsed.to).toMatchObject({ text: "ada@example.com" });
    expect(parsed.text).toBe(message.text);
    expect(parsed.html).toBe(message.html);
  });

  it("sends a text-only mail as a single text/plain part", async () => {
    const { port, received } = await startServer();
    const mailer = createSmtpMailer({ url: `smtp://user:p%40ss@127.0.0.1:${port}`, from });
    await mailer.send({ to: "bob@example.com", subject: "Reset your password", text: "Hi\n" });

    const parsed = await simpleParser(received[0]!.raw);
    expect(received[0]!.raw).toMatch(/^Content-Type: text\/plain/m);
    expect(received[0]!.raw).not.toContain("multipart");
    expect(parsed.subject).toBe("Reset your password");
    expect(parsed.text).toBe("Hi\n");
    expect(parsed.html).toBe(false);
  });

  it("gives every attempt at one mail the same Message-ID, derived from its idempotency key", async () => {
    const { port, received } = await startServer();
    const mailer = createSmtpMailer({ url: `smtp://user:p%40ss@127.0.0.1:${port}`, from });
    await mailer.send({ ...message, idempotencyKey: "mail/42" });
    await mailer.send({ ...message, idempotencyKey: "mail/42" });
    await mailer.send(message);
    const ids = await Promise.all(
      received.map(async (mail) => (await simpleParser(mail.raw)).messageId),
    );
    expect(ids[0]).toMatch(/^<[0-9a-f]{64}@tessera\.test>$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it("rejects with the server's answer when the recipient is refused", async () => {
    const { port, received } = await startServer({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
      },
    });
    const mailer = createSmtpMailer({ url: `smtp://user:p%40ss@127.0.0.1:${port}`, from });
    const error = await mailer.send(message).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^SMTP delivery through smtp://127\\.0\\.0\\.1:${port} failed: .*550 No such mailbox`,
      ),
    );
    expect(error).toMatchObject({ status: 550, retryable: false });
    expect(received).toEqual([]);
  });

  it("rejects on wrong credentials without repeating them", async () => {
    const { port, received } = await startServer();
    const mailer = createSmtpMailer({ url: `smtp://user:hunter2@127.0.0.1:${port}`, from });
    const error = await mailer.send(message).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as Error).message).toContain("535");
    expect((error as Error).message).not.toContain("hunter2");
    expect(received).toEqual([]);
  });

  it("rejects with a clear error when the connection is refused", async () => {
    const { port } = await startServer();
    await new Promise<void>((done) => servers.pop()!.close(() => done()));
    const mailer = createSmtpMailer({ url: `smtp://user:hunter2@127.0.0.1:${port}`, from });
    const error = await mailer.send(message).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as Error).message).toBe(
      `SMTP delivery through smtp://127.0.0.1:${port} failed: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect((error as Error).cause).toMatchObject({ code: "ESOCKET" });
    expect(error).toMatchObject({ retryable: true });
  });

  it("ends a pooled connection at close(), the transport having been loaded by the first send", async () => {
    let closeConnection: () => void = () => {};
    const connectionClosed = new Promise<void>((done) => (closeConnection = done));
    const { port, received } = await startServer({ onClose: () => closeConnection() });
    const mailer = createSmtpMailer({
      url: `smtp://user:p%40ss@127.0.0.1:${port}?pool=true`,
      from,
    });
    await mailer.send(message);
    expect(received).toHaveLength(1);
    // The pool keeps the connection open for the next mail until close() ends it.
    mailer.close();
    await connectionClosed;
  });

  it("refuses a URL that is not smtp: or smtps:, and an empty From, at creation", () => {
    expect(() => createSmtpMailer({ url: "http://user:hunter2@mail.test", from })).toThrow(
      new RangeError("SMTP_URL must start with smtp:// or smtps://"),
    );
    expect(() => createSmtpMailer({ url: "mail.test:2525", from })).toThrow(
      new RangeError("SMTP_URL must start with smtp:// or smtps://"),
    );
    expect(() => createSmtpMailer({ url: "//user:hunter2@mail.test", from })).toThrow(
      new RangeError("SMTP_URL is not a URL (expected smtp://user:pass@host:port)"),
    );
    expect(() => createSmtpMailer({ url: "smtp://127.0.0.1:2525", from: " " })).toThrow(RangeError);
  });
});
