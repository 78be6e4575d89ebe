import { describe, expect, it } from "vitest";
import { MemoryMailer } from "../src/memory-mailer.js";

describe("MemoryMailer", () => {
  it("keeps sent mails in order and finds the last one, overall or per recipient", async () => {
    const mailer = new MemoryMailer();
    expect(mailer.last()).toBeUndefined();
    const first = { to: "ada@example.com", subject: "One", text: "1" };
    const second = { to: "bob@example.com", subject: "Two", text: "2", html: "<p>2</p>" };
    const third = { to: "ada@example.com", subject: "Three", text: "3" };
    for (const message of [first, second, third]) await mailer.send(message);

    expect(mailer.sent).toEqual([first, second, third]);
    expect(mailer.last()).toEqual(third);
    expect(mailer.last("bob@example.com")).toEqual(second);
    expect(mailer.last("ada@example.com")).toEqual(third);
    expect(mailer.last("eve@example.com")).toBeUndefined();
  });

  it("keeps a copy, so later changes to the sender's object do not alter what was sent", async () => {
    const mailer = new MemoryMailer();
    const message = { to: "ada@example.com", subject: "Before", text: "x" };
    await mailer.send(message);
    message.subject = "After";
    expect(mailer.last()?.subject).toBe("Before");
  });

  it("forgets everything on clear()", async () => {
    const mailer = new MemoryMailer();
    await mailer.send({ to: "ada@example.com", subject: "One", text: "1" });
    mailer.clear();
    expect(mailer.sent).toEqual([]);
    expect(mailer.last("ada@example.com")).toBeUndefined();
  });
});
