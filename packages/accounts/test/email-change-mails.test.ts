import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  accountMigrations,
  SqlEmailChangeStore,
  sqlAccountStores,
  sqlTokenMailTransaction,
} from "@tessera/accounts/sql";
import { parseTimestamp } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import { routeRequests } from "@tessera/http";
import { outboxMailer } from "@tessera/mail/outbox";
import { outboxMigrations, SqlOutbox } from "@tessera/outbox/sql";
import { applyMigrations, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { maskEmail } from "../src/email-change/masked-email.js";
import {
  accountRoutes,
  EMAIL_CHANGE_LIFETIME_MS,
  emailChangeMail,
  emailChangingMail,
} from "../src/index.js";
import { emailChangeApp, LINK, ORIGIN, PASSWORD, refusal } from "./email-change-app.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-email-change-mails-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const TOKEN = "Xk3_9-abcdefghijklmnopqrstuvwxyzABCDEFGHIJK";

describe("maskEmail", () => {
  it("keeps the local part's first character and the domain", () => {
    expect(maskEmail("ada@example.com")).toBe("a•••@example.com");
    expect(maskEmail("a@example.com")).toBe("a•••@example.com");
    expect(maskEmail("𝒶da@example.com")).toBe("𝒶•••@example.com");
    expect(maskEmail("first.last+tag@sub.example.org")).toBe("f•••@sub.example.org");
  });
});

describe("the email change mails", () => {
  it("put the link alone on its line, escaped in the HTML part", () => {
    const mail = emailChangeMail({ to: "o'hara@example.com", origin: ORIGIN, token: TOKEN });
    expect(mail).toEqual({
      to: "o'hara@example.com",
      subject: "Confirm your new email address",
      text: `Open this link to make o'hara@example.com the address of your account:

${ORIGIN}/email_changes/${TOKEN}

The link is valid for 24 hours and works once. If you did not ask for this change, you can ignore this email: nothing changes without the link.
`,
      html: `<p>Open this link to make o&#39;hara@example.com the address of your account:</p>
<p><a href="${ORIGIN}/email_changes/${TOKEN}">${ORIGIN}/email_changes/${TOKEN}</a></p>
<p>The link is valid for 24 hours and works once. If you did not ask for this change, you can ignore this email: nothing changes without the link.</p>
`,
    });
    expect(() => emailChangeMail({ to: "a@example.com", origin: ORIGIN, token: "short" })).toThrow(
      RangeError,
    );
  });

  it("name the new address masked in the notice to the old one, with the reset page", () => {
    const mail = emailChangingMail({
      to: "ada@example.com",
      newEmail: "<b>@evil.example",
      origin: ORIGIN,
    });
    expect(mail.to).toBe("ada@example.com");
    expect(mail.subject).toBe("Your email address is being changed");
    expect(
      mail.text,
    ).toBe(`Someone signed in to your account asked to change its address to <•••@evil.example. Nothing changes until that address confirms it.

If this wasn't you, reset your password now: ${ORIGIN}/passwords/new
`);
    expect(mail.html).toContain("to &lt;•••@evil.example.");
    expect(mail.html).toContain("reset your password now: https://app.example/passwords/new</p>");
  });
});

describe("an email change on the real clock", () => {
  it("stores a link valid for 24 hours that works at once", async () => {
    const subject = await emailChangeApp({ realClock: true });
    const { bearer } = await subject.signUp();
    const before = Date.now();
    const body = { email: "ada@new.example", current_password: PASSWORD };
    expect((await subject.call("/api/auth/email", body, bearer)).status).toBe(202);
    const after = Date.now();
    const [row] = await subject.database.all<{ expires_at: string }>(
      "SELECT expires_at FROM email_changes",
    );
    const expiresAt = parseTimestamp(row!.expires_at);
    // Whole seconds, rounded down.
    expect(expiresAt).toBeGreaterThan(before + EMAIL_CHANGE_LIFETIME_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + EMAIL_CHANGE_LIFETIME_MS);
    const token = subject.linkTokenTo("ada@new.example");
    expect((await subject.call("/api/auth/email/confirm", { token })).status).toBe(200);
  });

  it("refuses a link the store holds as expired, on the page and over JSON", async () => {
    const subject = await emailChangeApp({ realClock: true });
    const { email } = await subject.signUp();
    const [user] = await subject.database.all<{ id: number }>("SELECT id FROM users");
    const token = randomToken();
    await new SqlEmailChangeStore(subject.database).request({
      userId: user!.id,
      newEmail: "ada@new.example",
      digest: sha256Hex(token),
      expiresAt: Date.now() - 1000,
      requestedAt: Date.now() - EMAIL_CHANGE_LIFETIME_MS,
    });
    const page = subject.browser();
    const shown = await page.get(`/email_changes/${token}`);
    expect(shown.status).toBe(303);
    expect(await page.follow(shown)).toContain("That email change link is invalid or has expired.");
    const refused = await subject.call("/api/auth/email/confirm", { token });
    expect((await refusal(refused, 422)).fields).toEqual({ token: ["is invalid"] });
    expect(await subject.emails()).toEqual([email]);
  });
});

describe("an email change in French", () => {
  it("answers, mails and flashes in the request's language", async () => {
    const subject = await emailChangeApp({ french: true });
    const { email, bearer } = await subject.signUp("ada@example.com");
    const invalid = await subject.call(
      "/api/auth/email",
      { email: "nope", current_password: PASSWORD },
      bearer,
    );
    expect(await refusal(invalid, 422)).toEqual({
      code: "validation_failed",
      message: "La validation a échoué",
      status: 422,
      fields: { email: ["n'est pas valide"] },
    });
    const asked = await subject.call(
      "/api/auth/email",
      { email: "ada@new.example", current_password: PASSWORD },
      bearer,
    );
    expect(asked.status).toBe(202);
    expect(asked.headers.get("content-language")).toBe("fr");
    expect(await asked.json()).toEqual({
      message: "Un lien de confirmation attend dans votre nouvelle boîte.",
    });
    const link = subject.mailer.last("ada@new.example")!;
    expect(link.subject).toBe("Confirmez votre nouvelle adresse e-mail");
    expect(link.text).toContain("Le lien est valable 24 heures");
    const notice = subject.mailer.last(email)!;
    expect(notice.subject).toBe("Votre adresse e-mail est en cours de modification");
    expect(notice.text).toContain("a•••@new.example");
    expect(notice.text).toContain(`${ORIGIN}/passwords/new`);

    const page = subject.browser();
    const token = LINK.exec(link.text)![1]!;
    const shown = await page.get(`/email_changes/${token}`);
    expect(await shown.text()).toContain(
      "Faire de ada@new.example l&#39;adresse de votre compte ?",
    );
    const confirmed = await page.form(`/email_changes/${token}`);
    expect(await page.follow(confirmed)).toContain("Votre adresse e-mail a été modifiée.");
  });
});

/** Accounts whose mails go to an outbox on the same SQLite database, in one transaction. */
async function accountsWithOutbox() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [...accountMigrations, ...outboxMigrations]);
  const outbox = new SqlOutbox(database);
  const mailErrors: string[] = [];
  vi.spyOn(console, "error").mockImplementation((line: string) => mailErrors.push(line));
  const accounts = accountRoutes({
    ...sqlAccountStores(database),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    mailer: outboxMailer({ outbox, writer: database }),
    tokenMailTransaction: sqlTokenMailTransaction(database, (writer) =>
      outboxMailer({ outbox, writer }),
    ),
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
  });
  const handle = routeRequests(accounts.routes);
  const call = async (path: string, body: unknown, bearer?: string) =>
    (await handle(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body: JSON.stringify(body),
      }),
      { clientAddress: "203.0.113.9" },
    ))!;
  await call("/api/auth/signup", { email: "ada@example.com", password: PASSWORD });
  const signedIn = await call("/api/auth/token", { email: "ada@example.com", password: PASSWORD });
  const { token } = (await signedIn.json()) as { token: string };
  const requestChange = async (email: string) =>
    (await call("/api/auth/email", { email, current_password: PASSWORD }, token)).status;
  return { database, outbox, mailErrors, requestChange };
}

/** A failing outbox: SQLite refuses every new row of `outbox_items`, as a full disk would. */
async function breakTheOutbox(database: SqlDatabase) {
  await database.run(
    "CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox_items BEGIN SELECT RAISE(ABORT, 'the outbox is full'); END",
  );
}

const pending = (database: SqlDatabase) =>
  database.all<{ new_email: string; digest: string }>(
    "SELECT new_email, digest FROM email_changes",
  );

describe("an email change and its link's mail in one transaction", () => {
  it("keeps both: the outbox's link carries the very token whose digest is stored", async () => {
    const { database, outbox, requestChange } = await accountsWithOutbox();
    expect(await requestChange("ada@new.example")).toBe(202);
    const items = await outbox.list("mail", { limit: 10 });
    const payloads = items.map((item) => item.payload as { to: string; text: string });
    expect(payloads.map((payload) => payload.to).sort()).toEqual([
      "ada@example.com",
      "ada@new.example",
    ]);
    const link = payloads.find((payload) => payload.to === "ada@new.example")!;
    const token = LINK.exec(link.text)?.[1];
    expect(await pending(database)).toEqual([
      { new_email: "ada@new.example", digest: sha256Hex(token!) },
    ]);
  });

  it("keeps neither when the mail cannot be stored: the pending change stays as it was", async () => {
    const { database, mailErrors, requestChange } = await accountsWithOutbox();
    expect(await requestChange("first@example.com")).toBe(202);
    const before = await pending(database);
    await breakTheOutbox(database);
    expect(await requestChange("second@example.com")).toBe(202);
    expect(await pending(database)).toEqual(before);
    expect(mailErrors).toEqual([
      "Could not send the email_change mail: the outbox is full",
      "Could not send the email_changing mail: the outbox is full",
    ]);
  });
});
