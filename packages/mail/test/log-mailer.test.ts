import { describe, expect, it } from "vitest";
import { formatLoggedMail, LogMailer } from "../src/log-mailer.js";

const link = `http://localhost:3000/magic_link/${"A".repeat(43)}`;

describe("LogMailer", () => {
  it("writes To, Subject and the text part between markers, one write per mail", async () => {
    const written: string[] = [];
    const mailer = new LogMailer({ write: (text) => written.push(text) });
    await mailer.send({
      to: "ada@example.com",
      subject: "Your sign-in link",
      text: `Open this link to sign in:\n\n${link}\n\nThe link is valid for 15 minutes.\n`,
      html: "<p>not printed</p>",
    });
    expect(written).toEqual([
      [
        "--- mail ---",
        "To: ada@example.com",
        "Subject: Your sign-in link",
        "",
        "Open this link to sign in:",
        "",
        link,
        "",
        "The link is valid for 15 minutes.",
        "--- end ---",
      ].join("\n"),
    ]);
  });

  it("never wraps: a long link stays whole on its own line", () => {
    const long = `https://app.example/passwords/${"x".repeat(300)}`;
    const lines = formatLoggedMail({ to: "a@b.c", subject: "s", text: `Open:\n${long}` }).split(
      "\n",
    );
    expect(lines).toContain(long);
  });

  it("turns line breaks in To and Subject into spaces and CRLF in the text into LF", () => {
    expect(
      formatLoggedMail({
        to: "a@b.c\r\n--- end ---",
        subject: "Hi\nTo: eve@example.com",
        text: "one\r\ntwo\rthree",
      }),
    ).toBe(
      "--- mail ---\nTo: a@b.c --- end ---\nSubject: Hi To: eve@example.com\n\none\ntwo\nthree\n--- end ---",
    );
  });

  it("writes to console.log by default", async () => {
    const original = console.log;
    const logged: unknown[][] = [];
    console.log = (...args: unknown[]) => logged.push(args);
    try {
      await new LogMailer().send({ to: "a@b.c", subject: "s", text: "t" });
    } finally {
      console.log = original;
    }
    expect(logged).toEqual([["--- mail ---\nTo: a@b.c\nSubject: s\n\nt\n--- end ---"]]);
  });
});
