import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Mail = typeof import("@tessera/mail");

export default {
  does: "send mails through the memory and log mailers and read them back",
  imports: () => ["@tessera/mail"],
  async run({ load, check }) {
    const { LogMailer, MemoryMailer } = await load<Mail>("@tessera/mail");
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
  },
} satisfies RuntimeSmoke;
