import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  accountMigrations,
  sqlAccountStores,
  sqlTokenMailTransaction,
} from "@tessera/accounts/sql";
import { sha256Hex } from "@tessera/crypto";
import { routeRequests } from "@tessera/http";
import { outboxMailer } from "@tessera/mail/outbox";
import { outboxMigrations, SqlOutbox } from "@tessera/outbox/sql";
import { applyMigrations, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { accountRoutes } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-token-mail-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const ORIGIN = "https://app.example";

/** Accounts whose mails go to an outbox on the same SQLite database, with or without one transaction. */
async function accountsOnOneDatabase(inOneTransaction: boolean) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [...accountMigrations, ...outboxMigrations]);
  const outbox = new SqlOutbox(database);
  const stores = sqlAccountStores(database);
  // A failed mail is reported on stderr, in one line naming its purpose.
  const mailErrors: string[] = [];
  vi.spyOn(console, "error").mockImplementation((line: string) => mailErrors.push(line));
  const accounts = accountRoutes({
    ...stores,
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    mailer: outboxMailer({ outbox, writer: database }),
    ...(inOneTransaction
      ? {
          tokenMailTransaction: sqlTokenMailTransaction(database, (writer) =>
            outboxMailer({ outbox, writer }),
          ),
        }
      : {}),
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
  });
  const created = await stores.users.create({ email: "ada@example.com", passwordDigest: "" }, 0);
  if (!created.ok) throw new Error("no user");
  const handle = routeRequests(accounts.routes);
  const requestSignInLink = async () => {
    const response = await handle(
      new Request(`${ORIGIN}/magic_link`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ email: "ada@example.com" }),
      }),
      { clientAddress: "203.0.113.9" },
    );
    return response?.status;
  };
  return { database, outbox, mailErrors, requestSignInLink };
}

/** A failing outbox: SQLite refuses every new row of `outbox_items`, as a full disk would. */
async function breakTheOutbox(database: SqlDatabase) {
  await database.run(
    "CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox_items BEGIN SELECT RAISE(ABORT, 'the outbox is full'); END",
  );
}

const tokenDigests = (database: SqlDatabase) =>
  database.all<{ digest: string }>("SELECT digest FROM auth_tokens WHERE purpose = 'magic_link'");

describe("an emailed token and its mail in one transaction", () => {
  it("keeps both: the outbox's mail carries the very token whose digest is stored", async () => {
    const { database, outbox, requestSignInLink } = await accountsOnOneDatabase(true);
    expect(await requestSignInLink()).toBe(303);
    const [item, ...others] = await outbox.list("mail", { limit: 10 });
    expect(others).toEqual([]);
    const text = (item!.payload as { text: string }).text;
    const token = /\/magic_link\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(await tokenDigests(database)).toEqual([{ digest: sha256Hex(token!) }]);
  });

  it("keeps neither when the mail cannot be stored: the previous link still works, the failure is reported", async () => {
    const { database, outbox, mailErrors, requestSignInLink } = await accountsOnOneDatabase(true);
    expect(await requestSignInLink()).toBe(303);
    const before = await tokenDigests(database);
    await breakTheOutbox(database);
    expect(await requestSignInLink()).toBe(303);
    expect(await tokenDigests(database)).toEqual(before);
    expect(await outbox.list("mail", { limit: 10 })).toHaveLength(1);
    expect(mailErrors).toEqual(["Could not send the magic_link mail: the outbox is full"]);
  });

  it("without it, a mail that cannot be stored leaves a token no one received (what the option prevents)", async () => {
    const { database, mailErrors, requestSignInLink } = await accountsOnOneDatabase(false);
    expect(await requestSignInLink()).toBe(303);
    const before = await tokenDigests(database);
    await breakTheOutbox(database);
    expect(await requestSignInLink()).toBe(303);
    expect(await tokenDigests(database)).not.toEqual(before);
    expect(mailErrors).toEqual(["Could not send the magic_link mail: the outbox is full"]);
  });
});
