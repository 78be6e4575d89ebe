import { accountMigrations, mfaChallengesFirstFactorMigration } from "@tessera/accounts/sql";
import { formatTimestamp } from "@tessera/core";
import { sha256Hex } from "@tessera/crypto";
import { applyMigrations } from "@tessera/sql";
import { describe, expect, it } from "vitest";
import {
  twoFactorApp as app,
  mfaTokenOf,
  PASSWORD,
  sessionFactors,
  withTotpAndPasskey,
} from "./two-factor-app.js";

describe("POST /api/auth/token/mfa announces the first factor, not the second", () => {
  it("after a password", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/token", { email, password: PASSWORD }),
    );
    const done = await subject.call("/api/auth/token/mfa", {
      mfa_token,
      code: subject.nextCode(key),
    });
    expect(done.status).toBe(200);
    expect(subject.signIns).toEqual([["password", "token", email]]);
  });

  it("after an emailed code", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    expect((await subject.call("/api/auth/email_code", { email })).status).toBe(202);
    const code = /^(\d{6})$/m.exec(subject.mailer.sent.at(-1)!.text)![1];
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/token/email_code", { email, code }),
    );
    const done = await subject.call("/api/auth/token/mfa", {
      mfa_token,
      code: subject.nextCode(key),
    });
    expect(done.status).toBe(200);
    expect(subject.signIns).toEqual([["email_code", "token", email]]);
  });

  it("after a passkey that did not verify its user", async () => {
    const subject = await app();
    const { email, key, authenticator } = await withTotpAndPasskey(subject);
    const options = await subject.call("/api/auth/passkeys/login/options", {});
    const { challenge_id } = (await options.json()) as { challenge_id: string };
    const response = await authenticator.authenticate(challenge_id, { userVerified: false });
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/passkeys/login", { challenge_id, response }),
    );
    const done = await subject.call("/api/auth/token/mfa", {
      mfa_token,
      code: subject.nextCode(key),
    });
    expect(done.status).toBe(200);
    expect(subject.signIns).toEqual([["passkey", "token", email]]);
  });
});

describe("the HTML second step announces and records the first factor", () => {
  it("after a password", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    const page = subject.browser();
    const login = await page.form("/login", { email, password: PASSWORD });
    expect(login.headers.get("location")).toBe("/login/second_factor");
    const done = await page.form("/login/second_factor", { code: subject.nextCode(key) });
    expect(done.status).toBe(303);
    expect(subject.signIns).toEqual([["password", "session", email]]);
    expect(await sessionFactors(subject, email)).toEqual(["password,totp"]);
  });

  it("after a sign-in link", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    const page = subject.browser();
    expect((await page.form("/magic_link", { email })).status).toBe(303);
    await expect.poll(() => subject.mailer.sent.length).toBeGreaterThan(0);
    const link = /\/magic_link\/[A-Za-z0-9_-]{43}/.exec(subject.mailer.sent.at(-1)!.text)![0];
    const used = await page.form(link);
    expect(used.headers.get("location")).toBe("/login/second_factor");
    const done = await page.form("/login/second_factor", { code: subject.nextCode(key) });
    expect(done.status).toBe(303);
    expect(subject.signIns).toEqual([["email_link", "session", email]]);
    expect(await sessionFactors(subject, email)).toEqual(["magic_link,totp"]);
  });

  it("after a passkey that did not verify its user", async () => {
    const subject = await app();
    const { email, key, authenticator } = await withTotpAndPasskey(subject);
    const page = subject.browser();
    const options = await page.json("/login/passkey/options");
    const { challenge_id } = (await options.json()) as { challenge_id: string };
    const response = await authenticator.authenticate(challenge_id, { userVerified: false });
    const first = await page.json("/login/passkey", { challenge_id, response });
    expect(await first.json()).toEqual({ location: "/login/second_factor" });
    const done = await page.form("/login/second_factor", { code: subject.nextCode(key) });
    expect(done.status).toBe(303);
    expect(subject.signIns).toEqual([["passkey", "session", email]]);
    expect(await sessionFactors(subject, email)).toEqual(["passkey,totp"]);
  });
});

describe("a challenge stored before its first factor was kept", () => {
  it("is completed after the migration, and announced as a password", async () => {
    const before = accountMigrations.filter(
      (migration) => migration !== mfaChallengesFirstFactorMigration,
    );
    const subject = await app(before);
    const { email, key } = await withTotpAndPasskey(subject);
    // The row as the store wrote it before the migration: no first factor.
    const mfaToken = "a-challenge-from-before-the-first-factor-was-kept";
    const user = await subject.database.get<{ id: number }>(
      "SELECT id FROM users WHERE email = ?",
      [email],
    );
    await subject.database.run(
      "INSERT INTO mfa_challenges (digest, user_id, failures, expires_at) VALUES (?, ?, 0, ?)",
      [sha256Hex(mfaToken), user!.id, formatTimestamp(subject.clock.now + 60_000)],
    );
    expect(await applyMigrations(subject.database, accountMigrations)).toEqual([
      mfaChallengesFirstFactorMigration.id,
    ]);
    const done = await subject.call("/api/auth/token/mfa", {
      mfa_token: mfaToken,
      code: subject.nextCode(key),
    });
    expect(done.status).toBe(200);
    expect(subject.signIns).toEqual([["password", "token", email]]);
  });

  it("is completed on the page, and announced as a password", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    const page = subject.browser();
    await page.form("/login", { email, password: PASSWORD });
    await subject.database.run("UPDATE mfa_challenges SET first_factor = NULL");
    const done = await page.form("/login/second_factor", { code: subject.nextCode(key) });
    expect(done.status).toBe(303);
    expect(subject.signIns).toEqual([["password", "session", email]]);
    expect(await sessionFactors(subject, email)).toEqual(["password,totp"]);
  });
});
