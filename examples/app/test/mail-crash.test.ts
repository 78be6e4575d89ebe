import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { listeningUrl, spawnApp, waitForLine } from "./support/app-process.js";
import { Browser } from "./support/browser.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A port nothing listens on: the mail server is down. */
async function closedPort(): Promise<number> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const { port } = holder.address() as AddressInfo;
  await new Promise((resolve) => holder.close(resolve));
  return port;
}

/** A real SMTP server on 127.0.0.1 keeping the raw text of every mail it accepts. */
async function startSmtpServer() {
  const received: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push(Buffer.concat(chunks).toString("utf8"));
        callback();
      });
    },
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
  return { port: (server.server.address() as AddressInfo).port, received };
}

interface MailRow {
  status: string;
  attempts: number;
  last_error: string | null;
  idempotency_key: string;
}

/** The outbox row of the reset mail, read from the app's file beside the running app. */
function resetMailRow(path: string): MailRow | undefined {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return database
      .prepare(
        "SELECT status, attempts, last_error, idempotency_key FROM outbox_items WHERE queue = 'mail' AND payload LIKE '%Reset your password%'",
      )
      .get() as MailRow | undefined;
  } finally {
    database.close();
  }
}

/** Waits until `check` returns a value (polling the app's file), up to `timeoutMs`. */
async function eventually<T>(check: () => T | undefined, what: string, timeoutMs = 30_000) {
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("a mail through the outbox survives a crash with the mail server down", () => {
  it("is delivered once after the app restarts with the mail server up", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tessera-mail-crash-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const databasePath = join(folder, "app.db");
    const settings = {
      PORT: "0",
      DATABASE_PATH: databasePath,
      SECRET_KEY_BASE: "mail-crash-".repeat(6),
      MAIL_ADAPTER: "smtp",
      MAIL_FROM: "Tessera <no-reply@tessera.test>",
    };
    const email = "crash@example.com";

    // The provider is down: the reset request is answered, its mail stored, its first
    // attempt refused.
    const down = spawnApp(folder, {
      ...settings,
      SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`,
    });
    cleanups.push(() => down.stop());
    const firstUrl = await listeningUrl(down);
    const browser = new Browser(firstUrl);
    expect(
      (await browser.post("/signup", { email, password: "correct horse battery" })).status,
    ).toBe(303);
    const reset = await new Browser(firstUrl).post("/passwords", { email });
    expect(reset).toMatchObject({ status: 303, location: "/login" });
    const refused = await eventually(() => {
      const row = resetMailRow(databasePath);
      return row?.last_error ? row : undefined;
    }, "the first attempt at the reset mail");
    expect(refused).toMatchObject({ status: "pending", attempts: 1 });
    expect(refused.last_error).toContain("ECONNREFUSED");

    down.child.kill("SIGKILL");
    expect(await down.exited).toBeNull();

    // Started again with the mail server up: the sender resumes and the mail arrives once.
    const smtp = await startSmtpServer();
    const up = spawnApp(folder, { ...settings, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    cleanups.push(() => up.stop());
    await listeningUrl(up);
    const delivered = await eventually(() => {
      const row = resetMailRow(databasePath);
      return row?.status === "done" ? row : undefined;
    }, "the reset mail's delivery");
    const resets = smtp.received.filter((raw) => raw.includes("Subject: Reset your password"));
    expect(resets).toHaveLength(1);
    expect(resets[0]).toContain(`To: ${email}`);
    expect(resets[0]).toMatch(/\/passwords\/\S+/);
    expect(delivered.attempts).toBe(2);
    // The confirmation mail of the sign-up, refused too, arrives as well.
    await eventually(
      () =>
        smtp.received.some((raw) => raw.includes("Subject: Confirm your email address"))
          ? true
          : undefined,
      "the confirmation mail",
    );

    up.child.kill("SIGTERM");
    expect(await up.exited).toBe(0);
    await waitForLine(up.output, /Stopped on SIGTERM/);
  }, 90_000);
});
