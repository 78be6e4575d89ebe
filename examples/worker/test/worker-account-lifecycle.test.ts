// An account's life on the Worker, over JSON in workerd through `npm run dev`: the password
// changed (every older token refused), the profile's name, and the email address moved to a new
// one by the link mailed to it (MAIL_ADAPTER=log: the mails are read from the Worker's output).
// Checked by status, body and D1 row, as the accounts package's own suites check them in Node.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256Hex } from "@tessera/crypto";
import { JSON_BODY_FAILURE_PREFIX } from "@tessera/http";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchFrom } from "./loopback-client.js";
import { d1Rows, startWorker, type WorkerProcess } from "./worker-process.js";

const PASSWORD = "correct horse battery staple";
const NEW_PASSWORD = "a brand new passphrase";
const APP_URL = "https://app.example";
const OPERATOR = "ops.worker@example.org";

const folder = mkdtempSync(join(tmpdir(), "tessera-worker-lifecycle-"));
const databasePath = join(folder, "app.db");
const rows = () => d1Rows(databasePath);

let worker: WorkerProcess;
let clients = 0;

beforeAll(async () => {
  worker = await startWorker({
    DATABASE_PATH: databasePath,
    MAIL_ADAPTER: "log",
    APP_URL,
    ADMIN_EMAILS: OPERATOR,
  });
}, 90_000);

afterAll(async () => {
  await worker?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** A loopback address of its own per request, so the sign-in rate limit never adds up. */
const newClient = () => `127.0.2.${++clients + 1}`;

async function call(path: string, options: { method?: string; token?: string; json?: unknown }) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  return fetchFrom(newClient(), `${worker.url}${path}`, {
    method: options.method ?? (options.json === undefined ? "GET" : "POST"),
    headers,
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
}

async function tokenOf(email: string, password: string): Promise<string> {
  const issued = await call("/api/auth/token", { json: { email, password } });
  expect(issued.status).toBe(200);
  return ((await issued.json()) as { token: string }).token;
}

/** A new user with a password, and the token of their password sign-in. */
async function signedUp() {
  const email = `life.${Date.now()}.${++clients}@example.com`;
  const signup = await call("/api/auth/signup", { json: { email, password: PASSWORD } });
  expect(signup.status).toBe(201);
  const { id } = (await signup.json()) as { id: number };
  return { id, email, token: await tokenOf(email, PASSWORD) };
}

/** The status and body of `GET /api/auth/me` for `token`. */
async function me(token: string) {
  const answer = await call("/api/auth/me", { token });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/**
 * Waits into the next whole second: a token's `iat` and `credentials_changed_at` are whole
 * seconds, and a token signed in the very second of the change survives it.
 */
const intoNextSecond = () => awaitWindowRoom(1_001, 1_000);

/** The mails the log mailer printed so far, as To, Subject and text. */
function loggedMails() {
  return [
    ...worker
      .output()
      .matchAll(/--- mail ---\nTo: (.*)\nSubject: (.*)\n\n([\s\S]*?)\n--- end ---/g),
  ].map(([, to, subject, text]) => ({ to: to!, subject: subject!, text: text! }));
}

/** Waits for the one mail of `subject` to `to` (the outbox delivers it after the answer). */
async function mailTo(to: string, subject: string) {
  const matching = () => loggedMails().filter((mail) => mail.to === to && mail.subject === subject);
  await expect.poll(() => matching().length, { timeout: 10_000 }).toBe(1);
  return matching()[0]!;
}

describe("POST /api/auth/password on the Worker", () => {
  it("changes the password, answers a fresh token, refuses every older one, and mails a notice", async () => {
    const { id, email, token } = await signedUp();
    const other = await tokenOf(email, PASSWORD);
    await intoNextSecond();
    const changed = await call("/api/auth/password", {
      token,
      json: { current_password: PASSWORD, password: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("cache-control")).toBe("no-store");
    const fresh = (await changed.json()) as { token: string; token_type: string };
    expect(fresh.token_type).toBe("Bearer");

    for (const old of [token, other]) expect((await me(old)).status).toBe(401);
    expect(await me(fresh.token)).toMatchObject({ status: 200, body: { id, email } });
    const oldPassword = await call("/api/auth/token", { json: { email, password: PASSWORD } });
    expect(oldPassword.status).toBe(401);
    expect((await me(await tokenOf(email, NEW_PASSWORD))).status).toBe(200);
    const [row] = rows()<{ password_digest: string; credentials_changed_at: string | null }>(
      "SELECT password_digest, credentials_changed_at FROM users WHERE id = ?",
      id,
    );
    expect(row!.credentials_changed_at).not.toBeNull();
    expect(row!.password_digest).toMatch(/^pbkdf2_sha256\$/);

    const notice = await mailTo(email, "Your password was changed");
    expect(notice.text).toContain(`${APP_URL}/passwords/new`);
  });

  it("keeps the older tokens with sign_out_others: false", async () => {
    const { id, email, token } = await signedUp();
    await intoNextSecond();
    const changed = await call("/api/auth/password", {
      token,
      json: { current_password: PASSWORD, password: NEW_PASSWORD, sign_out_others: false },
    });
    expect(changed.status).toBe(200);
    expect(await me(token)).toMatchObject({ status: 200, body: { id, email } });
    const [row] = rows()<{ credentials_changed_at: string | null }>(
      "SELECT credentials_changed_at FROM users WHERE id = ?",
      id,
    );
    expect(row!.credentials_changed_at).toBeNull();
  });

  it("refuses a wrong current password with 403 invalid_credentials, changing nothing", async () => {
    const { email, token } = await signedUp();
    const refused = await call("/api/auth/password", {
      token,
      json: { current_password: "not the password", password: NEW_PASSWORD },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { code: "invalid_credentials", message: "The password is incorrect.", status: 403 },
    });
    expect((await me(token)).status).toBe(200);
    await tokenOf(email, PASSWORD);
  });
});

describe("PATCH /api/auth/me on the Worker", () => {
  it("sets the profile's name, trimmed, and refuses a key that is no profile field", async () => {
    const { id, email, token } = await signedUp();
    const named = await call("/api/auth/me", {
      method: "PATCH",
      token,
      json: { name: "  Ada Lovelace " },
    });
    expect(named.status).toBe(200);
    expect(await named.json()).toMatchObject({ id, email, name: "Ada Lovelace" });
    expect(await me(token)).toMatchObject({ status: 200, body: { name: "Ada Lovelace" } });

    const unknown = await call("/api/auth/me", {
      method: "PATCH",
      token,
      json: { email: "eve@example.com" },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: {
        status: 400,
        message: `${JSON_BODY_FAILURE_PREFIX}unknown field \`email\`, expected \`name\``,
      },
    });
    expect(rows()("SELECT email, name FROM users WHERE id = ?", id)).toEqual([
      { email, name: "Ada Lovelace" },
    ]);
  });
});

describe("the email change on the Worker", () => {
  it("mails a link to the new address, which moves the account there once confirmed", async () => {
    const { id, email, token } = await signedUp();
    const newEmail = `moved.${Date.now()}.${++clients}@example.org`;
    const asked = await call("/api/auth/email", {
      token,
      json: { email: newEmail, current_password: PASSWORD },
    });
    expect(asked.status).toBe(202);
    expect(await asked.json()).toEqual({
      message: "Check your new address for a confirmation link.",
    });

    const link = await mailTo(newEmail, "Confirm your new email address");
    const changeToken = new RegExp(`^${APP_URL}/email_changes/([A-Za-z0-9_-]{43})$`, "m").exec(
      link.text,
    )?.[1];
    expect(changeToken).toBeDefined();
    const notice = await mailTo(email, "Your email address is being changed");
    expect(notice.text).not.toContain(changeToken);
    // Nothing changes until the link is used.
    expect(await me(token)).toMatchObject({ status: 200, body: { email } });

    const confirmed = await call("/api/auth/email/confirm", { json: { token: changeToken } });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ id, email: newEmail });
    expect(await me(token)).toMatchObject({ status: 200, body: { id, email: newEmail } });
    const [row] = rows()<{ email: string; confirmed_at: string | null }>(
      "SELECT email, confirmed_at FROM users WHERE id = ?",
      id,
    );
    expect(row).toMatchObject({ email: newEmail, confirmed_at: expect.any(String) });
    expect(rows()("SELECT * FROM email_changes WHERE user_id = ?", id)).toEqual([]);

    const again = await call("/api/auth/email/confirm", { json: { token: changeToken } });
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ error: { fields: { token: ["is invalid"] } } });
    await tokenOf(newEmail, PASSWORD);
  });
});

describe("refresh tokens on the Worker", () => {
  it("rotates a family kept in D1, and signs the app out", async () => {
    const { email } = await signedUp();
    const signedIn = await call("/api/auth/token", {
      json: { email, password: PASSWORD, refresh: true },
    });
    const { refresh_token: first } = (await signedIn.json()) as { refresh_token: string };
    const next = await call("/api/auth/token/refresh", { json: { refresh_token: first } });
    expect(next.status).toBe(200);
    const { token, refresh_token: second } = (await next.json()) as {
      token: string;
      refresh_token: string;
    };
    expect(second).not.toBe(first);
    expect((await me(token)).body.email).toBe(email);
    expect(
      rows()("SELECT digest FROM refresh_tokens WHERE digest = ?", sha256Hex(second)),
    ).toHaveLength(1);
    const signedOut = await call("/api/auth/token/refresh", {
      method: "DELETE",
      json: { refresh_token: second },
    });
    expect(signedOut.status).toBe(204);
    const refused = await call("/api/auth/token/refresh", { json: { refresh_token: second } });
    expect(refused.status).toBe(401);
  });
});

describe("per-account throttling on the Worker", () => {
  it("makes the eleventh password sign-in wait after ten wrong ones from ten addresses, counted in D1", async () => {
    const { email } = await signedUp();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const wrong = await call("/api/auth/token", {
        json: { email, password: `wrong ${attempt}` },
      });
      expect(wrong.status, `attempt ${attempt + 1}`).toBe(401);
    }
    const refused = await call("/api/auth/token", { json: { email, password: PASSWORD } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "account_throttled",
    );
    const streaks = rows()<{ failures: number }>("SELECT failures FROM failure_streaks");
    expect(streaks).toContainEqual({ failures: 10 });
  });
});

describe("operators on the Worker", () => {
  it("lets a confirmed ADMIN_EMAILS address ban a user, whose token then stops, recorded in D1", async () => {
    // The operator's address is confirmed by moving an account to it: the link proves it.
    const operator = await signedUp();
    await call("/api/auth/email", {
      token: operator.token,
      json: { email: OPERATOR, current_password: PASSWORD },
    });
    const link = await mailTo(OPERATOR, "Confirm your new email address");
    const changeToken = /\/email_changes\/([A-Za-z0-9_-]{43})$/m.exec(link.text)?.[1];
    expect((await call("/api/auth/email/confirm", { json: { token: changeToken } })).status).toBe(
      200,
    );

    const member = await signedUp();
    expect((await call("/api/admin/users", { token: member.token })).status).toBe(404);
    expect((await call("/api/admin/users", { token: operator.token })).status).toBe(200);
    const banned = await call(`/api/admin/users/${member.id}/ban`, {
      token: operator.token,
      json: { reason: "spam" },
    });
    expect(banned.status).toBe(200);
    expect((await me(member.token)).status).toBe(401);
    const refused = await call("/api/auth/token", {
      json: { email: member.email, password: PASSWORD },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "account_banned",
    );
    const trail = rows()<{ type: string; actor_id: number }>(
      "SELECT type, actor_id FROM audit_events WHERE user_id = ? AND type = 'user.banned'",
      member.id,
    );
    expect(trail).toEqual([{ type: "user.banned", actor_id: operator.id }]);

    // Acting as a user: their token for the hour, no credential change, until stopped.
    const actedFor = await signedUp();
    const started = await call(`/api/admin/users/${actedFor.id}/impersonate`, {
      token: operator.token,
      json: {},
    });
    expect(started.status).toBe(200);
    const { token: acting } = (await started.json()) as { token: string };
    expect(await me(acting)).toMatchObject({ status: 200, body: { email: actedFor.email } });
    const changed = await call("/api/auth/password", {
      token: acting,
      json: { current_password: PASSWORD, password: "another long passphrase" },
    });
    expect(changed.status).toBe(403);
    expect(((await changed.json()) as { error: { code: string } }).error.code).toBe(
      "impersonation_not_allowed",
    );
    const stopped = await call("/api/admin/impersonation/stop", { token: acting, json: {} });
    expect(stopped.status).toBe(204);
    expect((await me(acting)).status).toBe(401);
    expect(
      rows()<{ type: string; actor_id: number }>(
        "SELECT type, actor_id FROM audit_events WHERE user_id = ? ORDER BY id",
        actedFor.id,
      ).filter((row) => row.type.includes("impersonation")),
    ).toEqual([
      { type: "user.impersonation_started", actor_id: operator.id },
      { type: "user.impersonation_stopped", actor_id: operator.id },
    ]);
  });
});
