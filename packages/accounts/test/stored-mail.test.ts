import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import type { Mailer, MailMessage } from "@tessera/mail";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { accountRoutes } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-stored-mail-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ORIGIN = "https://app.example";

/**
 * A mailer whose `send` settles once `handedOver` does (a moment later by default, as a write to
 * a table does; a provider may take longer than any answer should).
 */
function slowMailer(
  stores: boolean,
  handedOver: () => Promise<unknown> = () => new Promise((resolve) => setTimeout(resolve, 30)),
): Mailer & { readonly settled: MailMessage[] } {
  const settled: MailMessage[] = [];
  return {
    stores,
    settled,
    async send(message) {
      await handedOver();
      settled.push(message);
    },
  };
}

async function requestSignInLink(mailer: Mailer) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  const stores = sqlAccountStores(database);
  const accounts = accountRoutes({
    ...stores,
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    mailer,
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
  });
  const created = await stores.users.create({ email: "ada@example.com", passwordDigest: "" }, 0);
  expect(created.ok).toBe(true);
  const handle = routeRequests(accounts.routes);
  const response = await handle(
    new Request(`${ORIGIN}/magic_link`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ email: "ada@example.com" }),
    }),
    { clientAddress: "203.0.113.9" },
  );
  expect(response?.status).toBe(303);
}

describe("account mails and a mailer that stores them", () => {
  it("answers only once a storing mailer (an outbox) has the mail", async () => {
    const mailer = slowMailer(true);
    await requestSignInLink(mailer);
    expect(mailer.settled.map((mail) => mail.to)).toEqual(["ada@example.com"]);
  });

  it("does not wait for a mailer that sends itself (the provider's time would show)", async () => {
    let answerFromProvider = () => {};
    const provider = new Promise<void>((resolve) => {
      answerFromProvider = resolve;
    });
    const mailer = slowMailer(false, () => provider);
    await requestSignInLink(mailer);
    expect(mailer.settled).toEqual([]);
    answerFromProvider();
    await expect.poll(() => mailer.settled.length).toBe(1);
  });
});
