import { MemoryOutbox } from "@tessera/outbox";
import { afterEach, describe, expect, it } from "vitest";
import { mailSender, outboxMailer } from "../src/outbox.js";
import { resendMailer } from "../src/resend.js";
import { startTricklingProvider } from "./trickling-provider.js";

const SCHEDULE = { delaysMs: [10_000] };
const mail = { subject: "Your sign-in link", text: "http://localhost:3000/magic_link/abc\n" };

let provider: Awaited<ReturnType<typeof startTricklingProvider>> | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** Resend on the trickling double, one request per attempt, with this request timeout. */
async function setUp(timeoutMs: number, runner: { attemptTimeoutMs?: number } = {}) {
  provider = await startTricklingProvider();
  const outbox = new MemoryOutbox();
  const transport = resendMailer({
    apiKey: "re_slow_provider_test",
    from: "Notes <no-reply@notes.test>",
    baseUrl: provider.url,
    retry: { attempts: 1, timeoutMs },
  });
  const mailer = outboxMailer({ outbox, writer: outbox });
  const sender = mailSender({ outbox, transport, schedule: SCHEDULE, log: () => {}, ...runner });
  return { provider, outbox, mailer, sender };
}

describe("mail through the outbox while the provider trickles a 500", () => {
  it("hands another recipient's mail over while one recipient's mails are stuck", async () => {
    // Neither the request timeout nor the attempt deadline ends the trickles within the test.
    const { provider, outbox, mailer, sender } = await setUp(50_000);
    for (let n = 1; n <= 4; n++) {
      await mailer.send({ ...mail, to: "slow@example.com", idempotencyKey: `slow-${n}` });
    }
    await mailer.send({ ...mail, to: "ada@example.com", idempotencyKey: "sign-in" });
    const draining = sender.drain();
    await provider.until(() => provider.answered.includes("ada@example.com"));
    // Handed over while two mails to slow@ still trickle; their other two wait for a slot of
    // their share rather than taking the rest.
    expect(provider.open).toBe(2);
    expect((await outbox.find("mail", "slow-3"))?.attempts).toBe(0);
    provider.recover();
    expect(await draining).toEqual({ delivered: 3, retried: 2, failed: 0, superseded: 0 });
    expect((await outbox.find("mail", "sign-in"))?.status).toBe("done");
    expect(provider.answered).toEqual(["ada@example.com", "slow@example.com", "slow@example.com"]);
  });

  it("hands a waiting sign-in mail over at the attempt deadline when trickles to four recipients hold every slot", async () => {
    const { provider, outbox, mailer, sender } = await setUp(50_000, { attemptTimeoutMs: 500 });
    for (let n = 1; n <= 4; n++) {
      await mailer.send({ ...mail, to: `slow-${n}@example.com`, idempotencyKey: `stuck-${n}` });
    }
    await mailer.send({ ...mail, to: "ada@example.com", idempotencyKey: "sign-in" });
    // Four recipients, one share each: only the deadline can free a slot. It ends the trickles
    // (the requests themselves, not just the wait), and the sign-in mail takes a freed slot.
    expect(await sender.drain()).toEqual({ delivered: 1, retried: 4, failed: 0, superseded: 0 });
    expect(provider.answered).toEqual(["ada@example.com"]);
    expect((await outbox.find("mail", "sign-in"))?.status).toBe("done");
    expect((await outbox.find("mail", "stuck-1"))?.lastError).toBe("no result within 500 ms");
    await provider.until(() => provider.closedByClient === 4);
  });

  it("cuts a trickling answer off at the request timeout, body included", async () => {
    const { provider, outbox, mailer, sender } = await setUp(300);
    await mailer.send({ ...mail, to: "slow@example.com", idempotencyKey: "slow" });
    expect(await sender.drain()).toMatchObject({ retried: 1 });
    expect((await outbox.find("mail", "slow"))?.lastError).toBe(
      "Resend answered 500 Internal Server Error: its answer did not end within 300 ms",
    );
    await provider.until(() => provider.closedByClient === 1);
    expect(provider.open).toBe(0);
  });

  it("cuts a trickling answer off at the outbox's attempt deadline, body included", async () => {
    const { provider, outbox, mailer, sender } = await setUp(50_000, { attemptTimeoutMs: 300 });
    await mailer.send({ ...mail, to: "slow@example.com", idempotencyKey: "slow" });
    expect(await sender.drain()).toMatchObject({ retried: 1 });
    expect((await outbox.find("mail", "slow"))?.lastError).toBe("no result within 300 ms");
    // The deadline reached the request itself: the connection was closed, not left trickling.
    await provider.until(() => provider.closedByClient === 1);
    expect(provider.open).toBe(0);
  });
});

describe("send(message, { signal }) of an HTTP adapter", () => {
  it("stops at once when the signal aborts during the wait before a retry", async () => {
    provider = await startTricklingProvider();
    const deadline = new AbortController();
    const transport = resendMailer({
      apiKey: "re_slow_provider_test",
      from: "Notes <no-reply@notes.test>",
      baseUrl: provider.url,
      // The wait before the second attempt never ends by itself: only the signal can end it.
      retry: {
        attempts: 3,
        timeoutMs: 200,
        sleep: () => {
          deadline.abort();
          return new Promise(() => undefined);
        },
      },
    });
    await expect(
      transport.send({ ...mail, to: "slow@example.com" }, { signal: deadline.signal }),
    ).rejects.toThrow(
      "Resend answered 500 Internal Server Error: its answer did not end within 200 ms",
    );
    // One request, cut off at its timeout, and no second one.
    expect(provider.closedByClient + provider.open).toBe(1);
  });
});
