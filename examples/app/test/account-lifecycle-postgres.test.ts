// The account's life after sign-up (the password, the profile, the email address) with the app on
// PostgreSQL: what the SQL stores write there, what they refuse there, and how the one-statement
// confirmation of an email change holds when two requests race for one link.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTimestamp } from "@tessera/core";
import { MAIL_QUEUE, parseQueuedMail, type QueuedMail } from "@tessera/mail/outbox";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresSchema, type PostgresSchema } from "../../../test/support/postgres.js";
import { loadConfig } from "../src/config.js";
import { type RunningServer, startServer } from "../src/server.js";
import { Browser, linkIn } from "./support/browser.js";
import { bearerTokenFor, callJsonApi } from "./support/json-api.js";
import { newClientAddress } from "./support/test-server.js";

// bearerTokenFor's password.
const FIRST_PASSWORD = "correct horse battery";
const SECOND_PASSWORD = "a second passphrase";
const THIRD_PASSWORD = "a third passphrase";

let schema: PostgresSchema;
let folder: string;
let server: RunningServer;

beforeAll(async () => {
  schema = await createPostgresSchema();
  folder = mkdtempSync(join(tmpdir(), "tessera-account-lifecycle-"));
  server = await startServer(
    loadConfig({
      PORT: "0",
      DATABASE_URL: schema.url,
      DATABASE_PATH: join(folder, "unused.db"),
      UPLOADS_PATH: join(folder, "uploads"),
      SECRET_KEY_BASE: "account-lifecycle-".repeat(4),
      // Each mail is stored in the outbox first, where this test reads it; the log adapter
      // then prints it as it would in development.
      MAIL_ADAPTER: "log",
      // Each Browser comes from an address of its own, so its sign-ins count apart.
      TRUST_PROXY: "1",
    }),
  );
});
afterAll(async () => {
  await server?.close();
  await schema?.drop();
  rmSync(folder, { recursive: true, force: true });
});

/** The mails to `to` titled `subject` stored in the app's outbox, oldest first. */
async function mailsTitled(to: string, subject: string): Promise<QueuedMail[]> {
  const rows = await schema.database.all<{ payload: string }>(
    "SELECT payload FROM outbox_items WHERE queue = ? ORDER BY id",
    [MAIL_QUEUE],
  );
  return rows
    .map((row) => parseQueuedMail(JSON.parse(row.payload)))
    .filter((mail): mail is QueuedMail => mail?.to === to && mail.subject === subject);
}

/** The one mail to `to` titled `subject`. */
async function mailTitled(to: string, subject: string): Promise<QueuedMail> {
  const mails = await mailsTitled(to, subject);
  expect(mails, `mails to ${to} titled ${subject}`).toHaveLength(1);
  return mails[0]!;
}

async function userRow(id: number) {
  const [row] = await schema.database.all<{
    email: string;
    name: string | null;
    confirmed_at: string | null;
    credentials_changed_at: string | null;
  }>("SELECT email, name, confirmed_at, credentials_changed_at FROM users WHERE id = ?", [id]);
  return row;
}

async function pendingEmailChanges(userId: number) {
  return schema.database.all<{ new_email: string; digest: string }>(
    "SELECT new_email, digest FROM email_changes WHERE user_id = ?",
    [userId],
  );
}

async function statusOfMe(token: string): Promise<number> {
  return (await callJsonApi(server.url, "GET", "/api/auth/me", token)).status;
}

/**
 * Waits into the next second: a password change ends the sign-ins of the seconds before its
 * own, and a token of its very second survives it.
 */
function awaitNextSecond(): Promise<void> {
  return awaitWindowRoom(1_000, 1_000);
}

describe("the account lifecycle over JSON on PostgreSQL", () => {
  const email = `lifecycle.${Date.now()}@example.com`;
  let userId: number;
  let token: string;

  beforeAll(async () => {
    token = await bearerTokenFor(server.url, email, { client: newClientAddress() });
    const me = await callJsonApi(server.url, "GET", "/api/auth/me", token);
    expect(me).toMatchObject({ status: 200, body: { email, name: null } });
    userId = me.body.id;
  });

  it("changes the password: the older token is refused, the fresh one works, a notice is mailed", async () => {
    const older = token;
    await awaitNextSecond();
    const before = formatTimestamp(Date.now());
    const changed = await callJsonApi(server.url, "POST", "/api/auth/password", older, {
      current_password: FIRST_PASSWORD,
      password: SECOND_PASSWORD,
    });
    const after = formatTimestamp(Date.now());
    expect(changed).toEqual({
      status: 200,
      body: { token: expect.any(String), token_type: "Bearer", expires_in: 3600 },
    });
    token = changed.body.token;

    expect(await statusOfMe(older)).toBe(401);
    const me = await callJsonApi(server.url, "GET", "/api/auth/me", token);
    expect(me).toMatchObject({ status: 200, body: { id: userId, email } });
    const changedAt = (await userRow(userId))?.credentials_changed_at;
    expect(changedAt! >= before && changedAt! <= after, `${changedAt} in ${before}…${after}`).toBe(
      true,
    );
    const passwordSignIn = (password: string) =>
      callJsonApi(server.url, "POST", "/api/auth/token", undefined, { email, password });
    expect((await passwordSignIn(FIRST_PASSWORD)).status).toBe(401);
    expect((await passwordSignIn(SECOND_PASSWORD)).status).toBe(200);

    const notice = await mailTitled(email, "Your password was changed");
    expect(notice.text).toContain(`${server.url}/passwords/new`);
  });

  it("keeps the older tokens with sign_out_others: false", async () => {
    const kept = (
      await callJsonApi(server.url, "POST", "/api/auth/token", undefined, {
        email,
        password: SECOND_PASSWORD,
      })
    ).body.token as string;
    const changedAtBefore = (await userRow(userId))?.credentials_changed_at;
    await awaitNextSecond();
    const changed = await callJsonApi(server.url, "POST", "/api/auth/password", token, {
      current_password: SECOND_PASSWORD,
      password: THIRD_PASSWORD,
      sign_out_others: false,
    });
    expect(changed.status).toBe(200);
    expect(await statusOfMe(kept)).toBe(200);
    expect(await statusOfMe(token)).toBe(200);
    expect((await userRow(userId))?.credentials_changed_at).toBe(changedAtBefore);
    expect(await mailsTitled(email, "Your password was changed")).toHaveLength(2);
    token = changed.body.token;
  });

  it("saves the name PATCH /api/auth/me sends, trimmed", async () => {
    const patched = await callJsonApi(server.url, "PATCH", "/api/auth/me", token, {
      name: "  Ada Lovelace ",
    });
    expect(patched).toMatchObject({
      status: 200,
      body: { id: userId, email, name: "Ada Lovelace" },
    });
    expect((await userRow(userId))?.name).toBe("Ada Lovelace");
    expect((await callJsonApi(server.url, "GET", "/api/auth/me", token)).body.name).toBe(
      "Ada Lovelace",
    );
  });

  it("changes the email address once its link is used, and refuses the link a second time", async () => {
    const newEmail = `moved.${Date.now()}@example.org`;
    const requested = await callJsonApi(server.url, "POST", "/api/auth/email", token, {
      email: newEmail,
      current_password: THIRD_PASSWORD,
    });
    expect(requested).toEqual({
      status: 202,
      body: { message: "Check your new address for a confirmation link." },
    });
    const confirmation = await mailTitled(newEmail, "Confirm your new email address");
    const link = linkIn(confirmation.text, "/email_changes");
    expect(link.url).toBe(`${server.url}/email_changes/${link.token}`);
    const notice = await mailTitled(email, "Your email address is being changed");
    expect(notice.text).toContain("m•••@example.org");
    expect(notice.text).not.toContain(newEmail);
    expect(notice.text).not.toContain(link.token);

    // Nothing changes until the link is used, and only the token's digest is stored.
    expect((await callJsonApi(server.url, "GET", "/api/auth/me", token)).body.email).toBe(email);
    const [pending] = await pendingEmailChanges(userId);
    expect(pending?.new_email).toBe(newEmail);
    expect(pending?.digest).not.toContain(link.token);

    const confirmed = await callJsonApi(server.url, "POST", "/api/auth/email/confirm", undefined, {
      token: link.token,
    });
    expect(confirmed).toMatchObject({
      status: 200,
      body: { id: userId, email: newEmail, name: "Ada Lovelace" },
    });
    expect((await callJsonApi(server.url, "GET", "/api/auth/me", token)).body.email).toBe(newEmail);
    expect(await userRow(userId)).toMatchObject({
      email: newEmail,
      confirmed_at: expect.any(String),
    });
    expect(await pendingEmailChanges(userId)).toEqual([]);

    const again = await callJsonApi(server.url, "POST", "/api/auth/email/confirm", undefined, {
      token: link.token,
    });
    expect(again).toEqual({
      status: 422,
      body: {
        error: {
          code: "validation_failed",
          message: "Validation failed",
          status: 422,
          fields: { token: ["is invalid"] },
        },
      },
    });
  });

  it("gives one 200 and one 422 to two confirmations of one link sent at once", async () => {
    const current = (await callJsonApi(server.url, "GET", "/api/auth/me", token)).body
      .email as string;
    const raced = `raced.${Date.now()}@example.net`;
    const requested = await callJsonApi(server.url, "POST", "/api/auth/email", token, {
      email: raced,
      current_password: THIRD_PASSWORD,
    });
    expect(requested.status).toBe(202);
    const link = linkIn(
      (await mailTitled(raced, "Confirm your new email address")).text,
      "/email_changes",
    );
    const confirm = () =>
      callJsonApi(server.url, "POST", "/api/auth/email/confirm", undefined, { token: link.token });
    const answers = await Promise.all([confirm(), confirm()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect(answers.find((answer) => answer.status === 200)?.body.email).toBe(raced);
    // The loser found no link left: not an address taken, which a second change would meet.
    expect(answers.find((answer) => answer.status === 422)?.body.error.fields).toEqual({
      token: ["is invalid"],
    });
    const users = await schema.database.all<{ id: number }>(
      "SELECT id FROM users WHERE email IN (?, ?)",
      [current, raced],
    );
    expect(users.map((user) => Number(user.id))).toEqual([userId]);
    expect((await userRow(userId))?.email).toBe(raced);
    expect(await pendingEmailChanges(userId)).toEqual([]);
  });
});

describe("a password change in one browser on PostgreSQL", () => {
  it("signs the other browser out when the box is ticked, and keeps the one that changed it", async () => {
    const email = `two.browsers.${Date.now()}@example.com`;
    const here = new Browser(server.url);
    const elsewhere = new Browser(server.url);
    expect((await here.post("/signup", { email, password: FIRST_PASSWORD })).location).toBe(
      "/account",
    );
    expect((await elsewhere.post("/login", { email, password: FIRST_PASSWORD })).location).toBe(
      "/",
    );
    expect((await elsewhere.get("/account")).status).toBe(200);

    await awaitNextSecond();
    const changed = await here.post("/account/password", {
      current_password: FIRST_PASSWORD,
      password: SECOND_PASSWORD,
      password_confirmation: SECOND_PASSWORD,
      sign_out_others: "1",
    });
    expect(changed).toMatchObject({ status: 303, location: "/account" });
    expect((await here.get("/account")).status).toBe(200);
    const signedOut = await elsewhere.get("/account");
    expect(signedOut).toMatchObject({ status: 303, location: "/login" });
    const [row] = await schema.database.all<{ credentials_changed_at: string | null }>(
      "SELECT credentials_changed_at FROM users WHERE email = ?",
      [email],
    );
    expect(row?.credentials_changed_at).not.toBeNull();
  });
});
