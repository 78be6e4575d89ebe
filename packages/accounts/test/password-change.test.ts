import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { decodeJwt } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { accountRoutes, RECENT_SIGN_IN_MS } from "../src/index.js";
import { jsonCaller } from "./json-caller.js";
import {
  fullSignInToken,
  ORIGIN,
  PASSWORD,
  passwordlessSignIn,
  type TwoFactorApp,
  twoFactorApp,
  withTotpAndPasskey,
} from "./two-factor-app.js";

const NEW_PASSWORD = "a brand new passphrase";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** A new user with a password and the token of their password sign-in. */
async function signedUp(subject: TwoFactorApp) {
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await subject.call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  return { email, bearer: await tokenOf(subject, email, PASSWORD) };
}

async function tokenOf(subject: TwoFactorApp, email: string, password: string): Promise<string> {
  const answer = await subject.call("/api/auth/token", { email, password });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { token: string }).token;
}

/** The status and `error.code` of a JSON refusal. */
async function refusal(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

async function digestOf(subject: TwoFactorApp, email: string) {
  const rows = await subject.database.all<{
    password_digest: string;
    credentials_changed_at: string | null;
  }>("SELECT password_digest, credentials_changed_at FROM users WHERE email = ?", [email]);
  return rows[0]!;
}

describe("POST /api/auth/password", () => {
  it("changes the password, answers a fresh token, refuses every token signed in before, and mails a notice", async () => {
    const subject = await twoFactorApp();
    const { email, bearer } = await signedUp(subject);
    const other = await tokenOf(subject, email, PASSWORD);
    subject.clock.now += 5000;
    const changed = await subject.call(
      "/api/auth/password",
      { current_password: PASSWORD, password: NEW_PASSWORD },
      bearer,
      "POST",
      { "user-agent": FIREFOX },
    );
    expect(changed.status).toBe(200);
    expect(changed.headers.get("cache-control")).toBe("no-store");
    const body = (await changed.json()) as {
      token: string;
      token_type: string;
      expires_in: number;
    };
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: expect.any(Number) });
    // The fresh token stands for the same sign-in: its auth_time is the old one's.
    expect(decodeJwt(body.token)).toMatchObject({
      iat: Math.floor(subject.clock.now / 1000),
      auth_time: decodeJwt(bearer).auth_time,
    });

    for (const old of [bearer, other]) {
      expect((await subject.call("/api/auth/me", undefined, old, "GET")).status).toBe(401);
    }
    const me = await subject.call("/api/auth/me", undefined, body.token, "GET");
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(email);
    expect((await subject.call("/api/auth/token", { email, password: PASSWORD })).status).toBe(401);
    await tokenOf(subject, email, NEW_PASSWORD);
    expect((await digestOf(subject, email)).credentials_changed_at).not.toBeNull();
    expect(subject.changes).toEqual([["onPasswordChanged", email, { signedOutOthers: true }]]);

    const notice = subject.mailer.sent.at(-1)!;
    expect(notice.to).toBe(email);
    expect(notice.subject).toBe("Your password was changed");
    expect(notice.text).toContain("Firefox 128 on Linux");
    expect(notice.text).toContain("2026-11-27 09:00:15 UTC");
    expect(notice.text).toContain(`${ORIGIN}/passwords/new`);
    expect(notice.html).toContain(`${ORIGIN}/passwords/new`);
  });

  it("keeps the other tokens with sign_out_others: false", async () => {
    const subject = await twoFactorApp();
    const { email, bearer } = await signedUp(subject);
    subject.clock.now += 5000;
    const changed = await subject.call(
      "/api/auth/password",
      { current_password: PASSWORD, password: NEW_PASSWORD, sign_out_others: false },
      bearer,
    );
    expect(changed.status).toBe(200);
    expect((await subject.call("/api/auth/me", undefined, bearer, "GET")).status).toBe(200);
    expect((await digestOf(subject, email)).credentials_changed_at).toBeNull();
    expect(subject.changes).toEqual([["onPasswordChanged", email, { signedOutOthers: false }]]);
  });

  it("keeps API keys: they are revoked one by one", async () => {
    const subject = await twoFactorApp();
    const { bearer } = await signedUp(subject);
    const created = await subject.call("/api/auth/keys", { name: "deploy" }, bearer);
    const { key } = (await created.json()) as { key: string };
    subject.clock.now += 5000;
    const body = { current_password: PASSWORD, password: NEW_PASSWORD };
    expect((await subject.call("/api/auth/password", body, bearer)).status).toBe(200);
    expect((await subject.call("/api/auth/me", undefined, key, "GET")).status).toBe(200);
  });

  it("refuses a wrong current password with 403 and changes nothing", async () => {
    const subject = await twoFactorApp();
    const { email, bearer } = await signedUp(subject);
    const before = await digestOf(subject, email);
    const sent = subject.mailer.sent.length;
    const answer = await subject.call(
      "/api/auth/password",
      { current_password: "not it", password: NEW_PASSWORD },
      bearer,
    );
    expect(await refusal(answer)).toEqual({
      status: 403,
      code: "invalid_credentials",
      message: "The password is incorrect.",
    });
    expect(await digestOf(subject, email)).toEqual(before);
    expect(subject.mailer.sent).toHaveLength(sent);
    expect(subject.changes).toEqual([]);
  });

  it("answers 422 on password for a too short or too long one", async () => {
    const subject = await twoFactorApp();
    const { bearer } = await signedUp(subject);
    for (const password of ["short", "x".repeat(129)]) {
      const answer = await subject.call(
        "/api/auth/password",
        { current_password: PASSWORD, password },
        bearer,
      );
      expect(answer.status).toBe(422);
      const { error } = (await answer.json()) as { error: { fields: Record<string, string[]> } };
      expect(Object.keys(error.fields)).toEqual(["password"]);
      expect(error.fields.password![0]).toMatch(/^is too (short|long)/);
    }
  });

  it("answers 400 for a malformed body, before any password is checked", async () => {
    const subject = await twoFactorApp();
    const { bearer } = await signedUp(subject);
    const cases: [unknown, string][] = [
      [{ password: NEW_PASSWORD }, "missing field `current_password`"],
      [{ current_password: PASSWORD }, "missing field `password`"],
      [
        { current_password: PASSWORD, password: 5 },
        "password: invalid type: integer 5, expected a string",
      ],
      [
        { current_password: PASSWORD, password: NEW_PASSWORD, sign_out_others: "yes" },
        'sign_out_others: invalid type: string "yes", expected a boolean',
      ],
    ];
    for (const [body, ending] of cases) {
      const answer = await subject.call("/api/auth/password", body, bearer);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((await refusal(answer)).message).toMatch(new RegExp(`${escapeRegExp(ending)}$`));
    }
    expect((await subject.call("/api/auth/password", {}, undefined)).status).toBe(401);
  });

  it("needs the recent second factor of a user who has one, beside the password", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const token = await fullSignInToken(subject, user);
    const body = { current_password: PASSWORD, password: NEW_PASSWORD };
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const stale = await subject.call("/api/auth/password", body, token);
    expect(await refusal(stale)).toMatchObject({ status: 403, code: "reauthentication_required" });
    subject.clock.now -= RECENT_SIGN_IN_MS;
    expect((await subject.call("/api/auth/password", body, token)).status).toBe(200);
  });

  it("lets a user without a password set one within 10 minutes of signing in, not later", async () => {
    const subject = await twoFactorApp();
    const { email, token } = await passwordlessSignIn(subject);
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const late = await subject.call("/api/auth/password", { password: NEW_PASSWORD }, token);
    expect(await refusal(late)).toMatchObject({ status: 403, code: "reauthentication_required" });
    subject.clock.now -= RECENT_SIGN_IN_MS;
    const set = await subject.call("/api/auth/password", { password: NEW_PASSWORD }, token);
    expect(set.status).toBe(200);
    await tokenOf(subject, email, NEW_PASSWORD);
  });
});

describe("/account/password", () => {
  async function signedInBrowser(subject: TwoFactorApp, email: string) {
    const browser = subject.browser();
    const login = await browser.form("/login", { email, password: PASSWORD });
    expect(login.status).toBe(303);
    return browser;
  }

  it("changes the password, keeps this browser signed in and signs the other one out", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const here = await signedInBrowser(subject, email);
    const there = await signedInBrowser(subject, email);
    const form = await here.get("/account/password");
    expect(form.status).toBe(200);
    const page = await form.text();
    expect(page).toContain('name="current_password"');
    expect(page).toMatch(/name="sign_out_others" type="checkbox" value="1" checked/);

    subject.clock.now += 5000;
    const changed = await here.form("/account/password", {
      current_password: PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
      sign_out_others: "1",
    });
    expect(changed.status).toBe(303);
    expect(changed.headers.get("location")).toBe("/account");
    const account = await here.get("/account");
    expect(account.status).toBe(200);
    expect(await account.text()).toContain("Your password has been changed.");
    expect((await there.get("/account")).status).toBe(303);
    const devices = await subject.database.all("SELECT id FROM user_sessions");
    expect(devices).toHaveLength(1);
    expect(subject.mailer.sent.at(-1)!.subject).toBe("Your password was changed");
  });

  it("leaves the other browser signed in when unticked", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const here = await signedInBrowser(subject, email);
    const there = await signedInBrowser(subject, email);
    subject.clock.now += 5000;
    const changed = await here.form("/account/password", {
      current_password: PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(changed.status).toBe(303);
    expect((await there.get("/account")).status).toBe(200);
    expect((await here.get("/account")).status).toBe(200);
  });

  it("shows a wrong current password, a mismatch and the policy on the page, changing nothing", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const here = await signedInBrowser(subject, email);
    const before = await digestOf(subject, email);
    const cases: [Record<string, string>, string][] = [
      [
        { current_password: "nope", password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
        "Current password is incorrect",
      ],
      [
        { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: "other" },
        "doesn&#39;t match Password",
      ],
      [
        { current_password: PASSWORD, password: "short", password_confirmation: "short" },
        "is too short",
      ],
    ];
    for (const [fields, message] of cases) {
      const answer = await here.form("/account/password", fields);
      expect(answer.status).toBe(422);
      expect(await answer.text()).toContain(message);
    }
    expect(await digestOf(subject, email)).toEqual(before);
  });

  it("sends a stranger to sign in", async () => {
    const subject = await twoFactorApp();
    const stranger = subject.browser();
    const answer = await stranger.get("/account/password");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/login");
  });
});

describe("on the real clock", () => {
  const folder = mkdtempSync(join(tmpdir(), "tessera-password-change-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("a token signed a second before the change stops working, the answered one works", async () => {
    const database = openSqliteFile(join(folder, "app.db"));
    await applyMigrations(database, accountMigrations);
    const accounts = accountRoutes({
      ...sqlAccountStores(database),
      mailer: new MemoryMailer(),
      appUrl: ORIGIN,
      secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
      passwords: { iterations: 1000 },
    });
    const call = jsonCaller(routeRequests(accounts.routes), ORIGIN, "198.51.100.8");
    const email = `ada-${crypto.randomUUID()}@example.com`;
    await call("POST", "/api/auth/signup", { email, password: PASSWORD });
    const signedIn = await call("POST", "/api/auth/token", { email, password: PASSWORD });
    const { token } = (await signedIn.json()) as { token: string };
    // Into the next second: iat and credentials_changed_at are whole seconds.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const changed = await call(
      "POST",
      "/api/auth/password",
      { current_password: PASSWORD, password: NEW_PASSWORD },
      token,
    );
    expect(changed.status).toBe(200);
    const fresh = ((await changed.json()) as { token: string }).token;
    expect((await call("GET", "/api/auth/me", undefined, token)).status).toBe(401);
    expect((await call("GET", "/api/auth/me", undefined, fresh)).status).toBe(200);
    database.close();
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
