// The audit trail through the account routes on a SQLite file: each account event a user's
// life goes through is recorded once, with the request's address and browser and no secret in
// its details, and the user reads their own trail over JSON and on /account/activity.
import { describe, expect, it } from "vitest";
import { ACCOUNT_AUDIT_EVENT_TYPES } from "../src/index.js";
import {
  fullSignInToken,
  mfaTokenOf,
  PASSWORD,
  type TwoFactorApp,
  twoFactorApp,
  withTotpAndPasskey,
} from "./two-factor-app.js";

interface AuditRow {
  type: string;
  user_id: number | null;
  actor_id: number | null;
  ip: string | null;
  user_agent: string | null;
  details: string;
}

async function trailOf(subject: TwoFactorApp, userId: number | null) {
  return subject.database.all<AuditRow>(
    userId === null
      ? "SELECT type, user_id, actor_id, ip, user_agent, details FROM audit_events WHERE user_id IS NULL ORDER BY id"
      : "SELECT type, user_id, actor_id, ip, user_agent, details FROM audit_events WHERE user_id = ? ORDER BY id",
    userId === null ? [] : [userId],
  );
}

async function idOf(subject: TwoFactorApp, email: string): Promise<number> {
  return (await subject.users.findByEmail(email))!.id;
}

const json = async <T>(response: Response) => (await response.json()) as T;

describe("the audit trail", () => {
  it("records each event of an account's life once, with no secret in its details", async () => {
    const subject = await twoFactorApp();
    const { call } = subject;
    const user = await withTotpAndPasskey(subject);
    const id = await idOf(subject, user.email);
    const secrets: string[] = [PASSWORD];

    // A wrong password, then a full sign-in (password and code).
    expect((await call("/api/auth/token", { email: user.email, password: "wrong" })).status).toBe(
      401,
    );
    let bearer = await fullSignInToken(subject, user);
    // New backup codes, an API key made and deleted.
    const codes = await call("/api/auth/mfa/backup_codes", { password: PASSWORD }, bearer);
    const { backup_codes } = await json<{ backup_codes: string[] }>(codes);
    secrets.push(...backup_codes);
    const created = await call("/api/auth/keys", { name: "ci" }, bearer);
    const { key, api_key } = await json<{ key: string; api_key: { id: number } }>(created);
    secrets.push(key, bearer);
    expect((await call(`/api/auth/keys/${api_key.id}`, {}, bearer, "DELETE")).status).toBe(204);
    // The passkey removed, TOTP turned off.
    const passkeys = await json<{ id: number }[]>(
      await call("/api/auth/passkeys", undefined, bearer, "GET"),
    );
    expect((await call(`/api/auth/passkeys/${passkeys[0]!.id}`, {}, bearer, "DELETE")).status).toBe(
      204,
    );
    expect(
      (await call("/api/auth/mfa/totp", { password: PASSWORD }, bearer, "DELETE")).status,
    ).toBe(204);
    // The password changed, an email change asked for and confirmed.
    const newPassword = "a brand new passphrase";
    secrets.push(newPassword);
    const changed = await call(
      "/api/auth/password",
      { current_password: PASSWORD, password: newPassword },
      bearer,
    );
    expect(changed.status).toBe(200);
    bearer = (await json<{ token: string }>(changed)).token;
    const newEmail = `moved-${crypto.randomUUID()}@example.com`;
    const asked = await call(
      "/api/auth/email",
      { email: newEmail, current_password: newPassword },
      bearer,
    );
    expect(asked.status).toBe(202);
    const token = /\/email_changes\/([A-Za-z0-9_-]+)/.exec(
      subject.mailer.last(newEmail)!.text,
    )![1]!;
    secrets.push(token);
    expect((await call("/api/auth/email/confirm", { token })).status).toBe(200);
    // Signed in and out of a browser, then the account deleted.
    const browser = subject.browser();
    expect((await browser.form("/login", { email: newEmail, password: newPassword })).status).toBe(
      303,
    );
    expect((await browser.form("/logout")).status).toBe(303);
    const fresh = await call("/api/auth/token", { email: newEmail, password: newPassword });
    const freshToken = (await json<{ token: string }>(fresh)).token;
    secrets.push(freshToken);
    expect(
      (await call("/api/auth/me", { password: newPassword }, freshToken, "DELETE")).status,
    ).toBe(204);

    const trail = await trailOf(subject, id);
    expect(trail.map((row) => row.type)).toEqual([
      "user.signed_up",
      "user.signed_in",
      "user.passkey_added",
      "user.mfa_enabled",
      "user.sign_in_failed",
      "user.signed_in",
      "user.backup_codes_regenerated",
      "user.api_key_created",
      "user.api_key_deleted",
      "user.passkey_removed",
      "user.mfa_disabled",
      "user.password_changed",
      "user.email_change_requested",
      "user.email_changed",
      "user.signed_in",
      "user.signed_out",
      "user.signed_in",
      "user.deleted",
    ]);
    expect(trail.every((row) => row.ip?.startsWith("203.0.113."))).toBe(true);
    const details = trail.map((row) => JSON.parse(row.details) as Record<string, unknown>);
    expect(details[4]).toEqual({ method: "password", reason: "wrong_password" });
    expect(details[1]).toEqual({ method: "password", grant: "token" });
    expect(details[11]).toEqual({ signed_out_others: true });
    expect(details[12]).toEqual({ new_email: newEmail });
    const everything = trail.map((row) => JSON.stringify(row)).join("\n");
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it("records wrong second-factor answers and emailed codes as failed sign-ins of the account", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const [row] = await subject.database.all<{ id: number }>(
      "SELECT id FROM users WHERE email = ?",
      [user.email],
    );
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/token", { email: user.email, password: PASSWORD }),
    );
    const wrong = await subject.call("/api/auth/token/mfa", { mfa_token, code: "000000" });
    expect(wrong.status).toBe(401);
    // No live challenge names nobody: nothing to record.
    await subject.call("/api/auth/token/mfa", { mfa_token: "x".repeat(43), code: "000000" });
    expect((await subject.call("/api/auth/email_code", { email: user.email })).status).toBe(202);
    const badCode = await subject.call("/api/auth/token/email_code", {
      email: user.email,
      code: "000000",
    });
    expect(badCode.status).toBe(401);
    const trail = await trailOf(subject, row!.id);
    const failed = trail
      .filter((event) => event.type === "user.sign_in_failed")
      .map((event) => JSON.parse(event.details) as unknown);
    expect(failed).toEqual([
      { method: "second_factor", reason: "wrong_code" },
      { method: "email_code", reason: "wrong_code" },
    ]);
  });

  it("records a failed sign-in to an address with no account under no user, and the throttling", async () => {
    const subject = await twoFactorApp();
    const nobody = `nobody-${crypto.randomUUID()}@example.com`;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await subject.call("/api/auth/token", { email: nobody, password: `guess ${attempt}` });
    }
    const trail = await trailOf(subject, null);
    expect(trail.map((row) => row.type)).toEqual([
      ...Array(10).fill("user.sign_in_failed"),
      "user.throttled",
    ]);
    expect(trail.some((row) => row.details.includes(nobody) || row.details.includes("guess"))).toBe(
      false,
    );
  });

  it("lets a user read their own trail, newest first and paged, over JSON and on a page", async () => {
    const subject = await twoFactorApp();
    const email = `reader-${crypto.randomUUID()}@example.com`;
    expect((await subject.call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(
      201,
    );
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await subject.call("/api/auth/token", { email, password: "wrong" });
    }
    const signedIn = await subject.call("/api/auth/token", { email, password: PASSWORD });
    const { token } = await json<{ token: string }>(signedIn);
    const first = await subject.call("/api/auth/activity?limit=2", undefined, token, "GET");
    expect(first.status).toBe(200);
    const page = await json<{ id: number; type: string; ip: string; details: unknown }[]>(first);
    expect(page.map((event) => event.type)).toEqual(["user.signed_in", "user.sign_in_failed"]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    expect(next).toBe(`/api/auth/activity?limit=2&after=${page[1]!.id}`);
    const rest = await json<{ type: string }[]>(await subject.call(next!, undefined, token, "GET"));
    expect(rest.map((event) => event.type)).toEqual(["user.sign_in_failed", "user.sign_in_failed"]);
    // Another user's trail is never in it; a bad page is a 400.
    const bad = await subject.call("/api/auth/activity?limit=0", undefined, token, "GET");
    expect(bad.status).toBe(400);
    expect((await subject.call("/api/auth/activity", undefined, undefined, "GET")).status).toBe(
      401,
    );

    const browser = subject.browser();
    await browser.form("/login", { email, password: PASSWORD });
    expect(await (await browser.get("/account")).text()).toContain('href="/account/activity"');
    const html = await (await browser.get("/account/activity")).text();
    expect(html).toContain("<h1>Account activity</h1>");
    expect(html).toContain("Failed sign-in");
    expect(html).toContain("Account created");
    expect((await subject.browser().get("/account/activity")).status).toBe(303);
  });

  it("names every event type it records in the list it exports", () => {
    expect(new Set(ACCOUNT_AUDIT_EVENT_TYPES).size).toBe(ACCOUNT_AUDIT_EVENT_TYPES.length);
    expect(ACCOUNT_AUDIT_EVENT_TYPES).toContain("user.session_revoked");
  });
});
