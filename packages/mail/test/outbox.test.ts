import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "@tessera/core";
import { MemoryOutbox, type Outbox } from "@tessera/outbox";
import { outboxMigrations, SqlOutbox } from "@tessera/outbox/sql";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import type { Mailer, MailMessage } from "../src/mailer.js";
import { MemoryMailer } from "../src/memory-mailer.js";
import { mailSender, outboxMailer } from "../src/outbox.js";
import { resendMailer } from "../src/resend.js";
import { startProviderDouble } from "./provider-double.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const SCHEDULE = { delaysMs: [10_000, 60_000] };
const apiKey = "re_outbox_test_5Jq2";
const from = "Notes <no-reply@notes.test>";
const mail = {
  to: "ada@example.com",
  subject: "Reset your password",
  text: "Open http://localhost:3000/password_reset/abc\n",
  html: '<p><a href="http://localhost:3000/password_reset/abc">Reset</a></p>',
};

let double: Awaited<ReturnType<typeof startProviderDouble>>;
beforeAll(async () => {
  double = await startProviderDouble({ status: 200, body: { id: "4ef9a417" } });
});
afterAll(() => double.close());
beforeEach(() => double.reset());

/** An outbox and the writer its mailer writes through, on the clock given. */
interface OutboxOnClock {
  readonly outbox: Outbox<unknown>;
  readonly writer: unknown;
}

const engines: [string, (clock: Clock) => Promise<OutboxOnClock>][] = [
  [
    "memory",
    async (clock) => {
      const outbox = new MemoryOutbox({ clock });
      return { outbox, writer: outbox };
    },
  ],
  [
    "SQLite",
    async (clock) => {
      const folder = mkdtempSync(join(tmpdir(), "tessera-mail-outbox-"));
      const database = openSqliteFile(join(folder, "app.db"));
      onTestFinished(() => {
        database.close();
        rmSync(folder, { recursive: true, force: true });
      });
      await applyMigrations(database, outboxMigrations);
      return { outbox: new SqlOutbox(database, { clock }), writer: database };
    },
  ],
];

describe.each(engines)("mail through the outbox (%s)", (_engine, makeOutbox) => {
  async function setUp(transport: Mailer) {
    const time = { now: T0 };
    const clock = () => time.now;
    const { outbox, writer } = await makeOutbox(clock);
    const logged: string[] = [];
    const mailer = outboxMailer({ outbox, writer });
    const sender = mailSender({
      outbox,
      transport,
      schedule: SCHEDULE,
      clock,
      random: () => 0,
      log: (line) => logged.push(line),
    });
    const onlyItem = async () => {
      const [item, ...others] = await outbox.list("mail", { limit: 10 });
      expect(others).toEqual([]);
      return item!;
    };
    return { outbox, writer, mailer, sender, time, logged, onlyItem };
  }

  /** Resend on the double, trying each request once: the outbox's schedule does the rest. */
  const resend = () => resendMailer({ apiKey, from, baseUrl: double.url, retry: { attempts: 1 } });

  it("stores the mail without sending it, then delivers it once with the item's key", async () => {
    const transport = new MemoryMailer();
    const { mailer, sender, onlyItem } = await setUp(transport);
    await mailer.send(mail);
    expect(transport.sent).toEqual([]);
    const stored = await onlyItem();
    expect(stored).toMatchObject({ queue: "mail", status: "pending", payload: mail });
    expect(await sender.drain()).toEqual({ delivered: 1, retried: 0, failed: 0, superseded: 0 });
    expect(transport.sent).toEqual([{ ...mail, idempotencyKey: stored.key }]);
    expect(await onlyItem()).toMatchObject({ status: "done", finishedAt: T0, lastError: null });
    expect(await sender.drain()).toMatchObject({ delivered: 0 });
    expect(transport.sent).toHaveLength(1);
  });

  it("keeps a text-only mail without an html part, and uses a message's own idempotency key", async () => {
    const transport = new MemoryMailer();
    const { mailer, sender, outbox } = await setUp(transport);
    const textOnly: MailMessage = { to: "bob@example.com", subject: "Hi", text: "Hi Bob" };
    await mailer.send({ ...textOnly, idempotencyKey: "welcome/7" });
    await mailer.send({ ...textOnly, idempotencyKey: "welcome/7" });
    expect((await outbox.list("mail", { limit: 10 })).map((item) => item.key)).toEqual([
      "welcome/7",
    ]);
    await sender.drain();
    expect(transport.sent).toEqual([{ ...textOnly, idempotencyKey: "welcome/7" }]);
  });

  it("sends through Resend with the item's key as Idempotency-Key", async () => {
    const { mailer, sender, onlyItem } = await setUp(resend());
    await mailer.send(mail);
    await sender.drain();
    const { key } = await onlyItem();
    expect(double.requests).toHaveLength(1);
    expect(double.requests[0]!.headers["idempotency-key"]).toBe(key);
    expect(JSON.parse(double.requests[0]!.body)).toMatchObject({ to: [mail.to], text: mail.text });
  });

  it("fails a mail for good at once on a final 4xx, keeping and logging the provider's message", async () => {
    double.answerNext({
      status: 422,
      body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." },
    });
    const { mailer, sender, onlyItem, time, logged } = await setUp(resend());
    await mailer.send(mail);
    expect(await sender.drain()).toEqual({ delivered: 0, retried: 0, failed: 1, superseded: 0 });
    const item = await onlyItem();
    expect(item).toMatchObject({ status: "failed", attempts: 1, finishedAt: T0 });
    expect(item.lastError).toContain("Resend answered 422");
    expect(item.lastError).toContain("Invalid `to` field.");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("Invalid `to` field.");
    expect(logged[0]).toContain(`Mail ${item.id}`);
    expect(logged[0]).not.toContain(item.key);
    expect(logged[0]).not.toContain(apiKey);
    time.now = T0 + 24 * 3600_000;
    expect(await sender.drain()).toMatchObject({ failed: 0, delivered: 0 });
    expect(double.requests).toHaveLength(1);
  });

  it("retries a 5xx on the schedule with the same key on every attempt, then delivers", async () => {
    double.answerNext(
      { status: 503, body: { statusCode: 503, name: "internal_server_error", message: "busy" } },
      { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "oops" } },
    );
    const { mailer, sender, onlyItem, time, logged } = await setUp(resend());
    await mailer.send(mail);
    expect(await sender.drain()).toMatchObject({ retried: 1 });
    expect(await onlyItem()).toMatchObject({ status: "pending", runAt: T0 + 10_000 });
    expect((await onlyItem()).lastError).toContain("Resend answered 503");
    time.now = T0 + 9_999;
    expect(await sender.drain()).toMatchObject({ retried: 0, delivered: 0 });
    time.now = T0 + 10_000;
    expect(await sender.drain()).toMatchObject({ retried: 1 });
    time.now = T0 + 70_000;
    expect(await sender.drain()).toMatchObject({ delivered: 1 });
    const item = await onlyItem();
    expect(item).toMatchObject({ status: "done", attempts: 3 });
    const keys = double.requests.map((request) => request.headers["idempotency-key"]);
    expect(keys).toEqual([item.key, item.key, item.key]);
    expect(logged).toEqual([]);
  });

  it("logs one line once the schedule is spent, naming the item, its attempts and the last error", async () => {
    double.answerNext(
      ...[503, 503, 503].map((status) => ({
        status,
        body: { statusCode: status, name: "internal_server_error", message: "mail store down" },
      })),
    );
    const { mailer, sender, onlyItem, time, logged } = await setUp(resend());
    await mailer.send(mail);
    await sender.drain();
    time.now = T0 + 10_000;
    await sender.drain();
    expect(logged).toEqual([]);
    time.now = T0 + 70_000;
    expect(await sender.drain()).toMatchObject({ failed: 1 });
    const item = await onlyItem();
    expect(item).toMatchObject({ status: "failed", attempts: 3 });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      new RegExp(
        `^Mail ${item.id} of the outbox given up on after 3 attempts: Resend answered 503`,
      ),
    );
    expect(logged[0]).toContain("mail store down");
    expect(logged[0]).not.toContain(item.key);
    expect(logged[0]).not.toContain(apiKey);
  });

  it("waits for a 429's Retry-After when it is later than the schedule's next time", async () => {
    double.answerNext({
      status: 429,
      headers: { "Retry-After": "45" },
      body: { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests" },
    });
    const { mailer, sender, onlyItem, logged } = await setUp(resend());
    await mailer.send(mail);
    expect(await sender.drain()).toMatchObject({ retried: 1 });
    expect(await onlyItem()).toMatchObject({ status: "pending", runAt: T0 + 45_000 });
    expect(logged).toEqual([]);
  });

  it.each([
    ["delta-seconds of a lifetime", "99999999999"],
    ["delta-seconds beyond any number", "9".repeat(400)],
    ["a date in the year 9999", "Fri, 31 Dec 9999 23:59:59 GMT"],
  ])(
    "waits at most the schedule's longest step for a Retry-After of %s, logs it, and counts a failed attempt",
    async (_name, retryAfter) => {
      const busy = { statusCode: 503, name: "internal_server_error", message: "come back later" };
      double.answerNext(
        ...[1, 2, 3].map(() => ({
          status: 503,
          headers: { "Retry-After": retryAfter },
          body: busy,
        })),
      );
      const { mailer, sender, onlyItem, logged, time } = await setUp(resend());
      await mailer.send(mail);
      expect(await sender.drain()).toMatchObject({ retried: 1 });
      const item = await onlyItem();
      expect(item).toMatchObject({ status: "pending", attempts: 1, runAt: T0 + 60_000 });
      expect(item.lastError).toContain("Resend answered 503");
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(
        new RegExp(
          `^Outbox item ${item.id} of "mail" \\(attempt 1\\) was asked to wait \\S+ ms; waiting 60000 ms, the retry schedule's longest step$`,
        ),
      );
      // Asked for ever, each time: the schedule still ends, with the mail failed.
      time.now = T0 + 60_000;
      await sender.drain();
      time.now = T0 + 120_000;
      expect(await sender.drain()).toMatchObject({ failed: 1 });
      expect(await onlyItem()).toMatchObject({ status: "failed", attempts: 3 });
      expect(logged.at(-1)).toMatch(/given up on after 3 attempts: Resend answered 503/);
    },
  );

  it.each([
    ["a date in the past", "Sun, 06 Nov 1994 08:49:37 GMT"],
    ["garbage", "whenever you like"],
  ])(
    "keeps to the schedule for a Retry-After of %s, and logs nothing",
    async (_name, retryAfter) => {
      double.answerNext({
        status: 503,
        headers: { "Retry-After": retryAfter },
        body: { statusCode: 503, name: "internal_server_error", message: "busy" },
      });
      const { mailer, sender, onlyItem, logged } = await setUp(resend());
      await mailer.send(mail);
      expect(await sender.drain()).toMatchObject({ retried: 1 });
      expect(await onlyItem()).toMatchObject({
        status: "pending",
        attempts: 1,
        runAt: T0 + 10_000,
      });
      expect(logged).toEqual([]);
    },
  );

  it("keys each mail's fair share by its recipient, whatever the address's case", async () => {
    const { mailer, onlyItem } = await setUp(new MemoryMailer());
    await mailer.send({ ...mail, to: " Ada@Example.COM " });
    expect((await onlyItem()).fairnessKey).toBe("ada@example.com");
  });

  it("gives up at once on an item of the queue that is not a mail, without calling the transport", async () => {
    const transport = new MemoryMailer();
    const { outbox, writer, sender, logged } = await setUp(transport);
    const { key } = await outbox.enqueue(writer, "mail", { to: 42, subject: "x" });
    expect(await sender.drain()).toMatchObject({ failed: 1 });
    expect(transport.sent).toEqual([]);
    expect(await outbox.find("mail", key)).toMatchObject({
      status: "failed",
      lastError: "the outbox item is not a mail (to, subject, text, html)",
    });
    expect(logged).toEqual([
      expect.stringMatching(/given up on after 1 attempt: the outbox item is not a mail/),
    ]);
  });
});

describe("mailSender's options", () => {
  it("names a missing transport", () => {
    const outbox = new MemoryOutbox();
    expect(() => mailSender({ outbox } as never)).toThrow(
      new TypeError("mailSender: `transport` is missing: pass the Mailer that sends"),
    );
  });
});
