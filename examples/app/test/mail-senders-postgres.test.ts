import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresSchema, type PostgresSchema } from "../../../test/support/postgres.js";
import { loadConfig } from "../src/config.js";
import { type RunningServer, startServer } from "../src/server.js";
import { Browser } from "./support/browser.js";

const MAILS = 50;

let schema: PostgresSchema;
let folder: string;
const servers: RunningServer[] = [];
const mailers = [new MemoryMailer(), new MemoryMailer()];

// Two instances of the app on one PostgreSQL database, as two hosts behind a load balancer
// would run: each with its own pool, its own sender and its own transport.
beforeAll(async () => {
  schema = await createPostgresSchema();
  folder = mkdtempSync(join(tmpdir(), "tessera-mail-senders-"));
  for (const [index, mailer] of mailers.entries()) {
    const config = loadConfig({
      PORT: "0",
      DATABASE_URL: schema.url,
      DATABASE_PATH: join(folder, `unused-${index}.db`),
      UPLOADS_PATH: join(folder, `uploads-${index}`),
      SECRET_KEY_BASE: "two-senders-".repeat(6),
      // Each Browser comes from an address of its own, so sign-ups are not rate limited.
      TRUST_PROXY: "1",
    });
    servers.push(await startServer(config, { mailer, backgroundTasks: index === 0 }));
  }
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await schema?.drop();
  rmSync(folder, { recursive: true, force: true });
});

describe("two app instances sending mail from one PostgreSQL database", () => {
  it("deliver each of 50 mails once between them", async () => {
    // Sign-ups spread over both instances: each stores a confirmation mail.
    const emails = Array.from({ length: MAILS }, (_, n) => `sender${n}.${Date.now()}@example.com`);
    await Promise.all(
      emails.map(async (email, n) => {
        const answer = await new Browser(servers[n % 2]!.url).post("/signup", {
          email,
          password: "correct horse battery",
        });
        expect(answer.status).toBe(303);
      }),
    );
    // Both senders drain at once, racing for the same rows.
    await Promise.all(servers.map((server) => server.deliverMail()));
    await expect
      .poll(async () => {
        const [row] = await schema.database.all<{ count: string }>(
          "SELECT count(*) AS count FROM outbox_items WHERE queue = 'mail' AND status = 'done'",
        );
        return Number(row!.count);
      })
      .toBe(MAILS);
    const sent = mailers.flatMap((mailer) => mailer.sent);
    expect(sent).toHaveLength(MAILS);
    expect(new Set(sent.map((mail) => mail.idempotencyKey)).size).toBe(MAILS);
    expect(sent.map((mail) => mail.to).sort()).toEqual([...emails].sort());
  }, 60_000);

  it("keeps neither a reset token nor its mail when the mail cannot be stored", async () => {
    const email = `unstored.${Date.now()}@example.com`;
    const browser = new Browser(servers[0]!.url);
    expect(
      (await browser.post("/signup", { email, password: "correct horse battery" })).status,
    ).toBe(303);
    const tokens = async () => {
      const [row] = await schema.database.all<{ count: string }>(
        "SELECT count(*) AS count FROM auth_tokens JOIN users ON users.id = auth_tokens.user_id WHERE users.email = ? AND purpose = 'password_reset'",
        [email],
      );
      return Number(row!.count);
    };
    // PostgreSQL refuses every new outbox row, as a full disk or a lost connection would.
    await schema.database.run(`CREATE FUNCTION refuse_mail() RETURNS trigger LANGUAGE plpgsql
      AS $$ BEGIN RAISE EXCEPTION 'the outbox is full'; END $$`);
    await schema.database.run(
      "CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox_items FOR EACH ROW EXECUTE FUNCTION refuse_mail()",
    );
    try {
      const answer = await new Browser(servers[1]!.url).post("/passwords", { email });
      expect(answer.status).toBe(303);
      expect(await tokens()).toBe(0);
    } finally {
      await schema.database.run("DROP TRIGGER refuse_mail ON outbox_items");
    }
    expect((await new Browser(servers[1]!.url).post("/passwords", { email })).status).toBe(303);
    expect(await tokens()).toBe(1);
  });
});
