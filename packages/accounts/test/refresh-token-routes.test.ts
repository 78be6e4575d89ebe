// Refresh tokens through the account routes: asked with "refresh": true on any way in, rotated
// at POST /api/auth/token/refresh, a reuse past the grace revokes the family, two racing
// refreshes get one pair, DELETE signs the app out, and a password change, a ban or the
// account's deletion end every family. Without "refresh", the token body is the spec's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { sha256Hex } from "@tessera/crypto";
import { routeRequests } from "@tessera/http";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { decodeJwt } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { accountRoutes } from "../src/index.js";
import {
  mfaTokenOf,
  PASSWORD,
  type TwoFactorApp,
  twoFactorApp,
  withTotpAndPasskey,
} from "./two-factor-app.js";

const THIRTY_DAYS = 30 * 86_400;

interface TokenBody {
  token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  refresh_expires_in?: number;
}

async function signedUp(subject: TwoFactorApp) {
  const email = `app-${crypto.randomUUID()}@example.com`;
  const created = await subject.call("/api/auth/signup", { email, password: PASSWORD });
  expect(created.status).toBe(201);
  return { email, id: ((await created.json()) as { id: number }).id };
}

async function signInWithRefresh(subject: TwoFactorApp, email: string): Promise<TokenBody> {
  const answer = await subject.call(
    "/api/auth/token",
    { email, password: PASSWORD, refresh: true },
    undefined,
    "POST",
    { "user-agent": "Tessera iOS/1.0" },
  );
  expect(answer.status).toBe(200);
  return (await answer.json()) as TokenBody;
}

const refresh = (subject: TwoFactorApp, refreshToken: unknown) =>
  subject.call("/api/auth/token/refresh", { refresh_token: refreshToken });

async function refreshed(subject: TwoFactorApp, refreshToken: string): Promise<TokenBody> {
  const answer = await refresh(subject, refreshToken);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("cache-control")).toBe("no-store");
  return (await answer.json()) as TokenBody;
}

async function refusalCode(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe("asking for a refresh token", () => {
  it("without refresh, the token body is exactly the spec's", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const answer = await subject.call("/api/auth/token", { email, password: PASSWORD });
    const body = (await answer.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["token", "token_type", "expires_in"]);
    expect(await subject.database.all("SELECT id FROM refresh_token_families")).toEqual([]);
  });

  it("adds an opaque refresh token, kept only as a digest, with its family's client", async () => {
    const subject = await twoFactorApp();
    const { email, id } = await signedUp(subject);
    const body = await signInWithRefresh(subject, email);
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.refresh_expires_in).toBe(THIRTY_DAYS);
    const tokens = await subject.database.all<{ digest: string }>(
      "SELECT digest FROM refresh_tokens",
    );
    expect(tokens).toEqual([{ digest: sha256Hex(body.refresh_token!) }]);
    const families = await subject.database.all(
      "SELECT user_id, user_agent, factors FROM refresh_token_families",
    );
    expect(families).toEqual([{ user_id: id, user_agent: "Tessera iOS/1.0", factors: "password" }]);
  });

  it("works on every way in that answers a token: a second factor, an emailed code", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/token", { email: user.email, password: PASSWORD }),
    );
    const granted = await subject.call("/api/auth/token/mfa", {
      mfa_token,
      code: subject.nextCode(user.key),
      refresh: true,
    });
    const body = (await granted.json()) as TokenBody;
    expect(body.refresh_token).toBeDefined();
    const next = await refreshed(subject, body.refresh_token!);
    expect(decodeJwt(next.token).amr).toEqual(["password", "totp"]);

    const { email } = await signedUp(subject);
    expect((await subject.call("/api/auth/email_code", { email })).status).toBe(202);
    const code = /^(\d{6})$/m.exec(subject.mailer.sent.at(-1)!.text)![1];
    const byCode = await subject.call("/api/auth/token/email_code", { email, code, refresh: true });
    expect(((await byCode.json()) as TokenBody).refresh_token).toBeDefined();
  });

  it("refuses a refresh that is not a boolean, before anything else", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    for (const value of ["yes", 1, null, {}]) {
      const answer = await subject.call("/api/auth/token", {
        email,
        password: PASSWORD,
        refresh: value,
      });
      expect(await refusalCode(answer, 400)).toBe("bad_request");
    }
    expect(await subject.database.all("SELECT id FROM refresh_token_families")).toEqual([]);
  });
});

describe("refreshing", () => {
  it("rotates: a new access token of the same sign-in, a new refresh token, the old one used up", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const first = await signInWithRefresh(subject, email);
    subject.clock.now += 60_000;
    const second = await refreshed(subject, first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.refresh_expires_in).toBe(THIRTY_DAYS - 60);
    const claims = decodeJwt(second.token);
    // The sign-in it stands for is the first one: never a recent one for credential changes.
    expect(claims.auth_time).toBe(decodeJwt(first.token).auth_time);
    expect(claims.iat).toBe(Math.floor(subject.clock.now / 1000));
    const me = await subject.call("/api/auth/me", undefined, second.token, "GET");
    expect(((await me.json()) as { email: string }).email).toBe(email);
    // Within the grace, the used one gives the same pair's refresh token again.
    subject.clock.now += 10_000;
    expect((await refreshed(subject, first.refresh_token!)).refresh_token).toBe(
      second.refresh_token,
    );
  });

  it("a used token presented after the grace revokes the whole family", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const first = await signInWithRefresh(subject, email);
    const second = await refreshed(subject, first.refresh_token!);
    subject.clock.now += 11_000;
    expect(await refusalCode(await refresh(subject, first.refresh_token), 401)).toBe(
      "invalid_credentials",
    );
    // The thief's copy and the app's own are gone alike.
    expect(await refusalCode(await refresh(subject, second.refresh_token), 401)).toBe(
      "invalid_credentials",
    );
    const [family] = await subject.database.all<{ revoked_at: string | null }>(
      "SELECT revoked_at FROM refresh_token_families",
    );
    expect(family?.revoked_at).not.toBeNull();
  });

  it("two refreshes racing with one token both get the one new refresh token", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const first = await signInWithRefresh(subject, email);
    const answers = await Promise.all([
      refresh(subject, first.refresh_token),
      refresh(subject, first.refresh_token),
      refresh(subject, first.refresh_token),
    ]);
    const bodies = await Promise.all(answers.map((answer) => answer.json() as Promise<TokenBody>));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(bodies.map((body) => body.refresh_token)).size).toBe(1);
    const tokens = await subject.database.all("SELECT digest FROM refresh_tokens");
    expect(tokens).toHaveLength(2);
  });

  it("refuses what is not a live refresh token, and a body without one", async () => {
    const subject = await twoFactorApp();
    for (const token of ["", "x".repeat(43), "not a token", "a".repeat(4000)]) {
      expect(await refusalCode(await refresh(subject, token), 401), token).toBe(
        "invalid_credentials",
      );
    }
    for (const body of [{}, { refresh_token: 42 }, { refresh_token: null }]) {
      const answer = await subject.call("/api/auth/token/refresh", body);
      expect(await refusalCode(answer, 400)).toBe("bad_request");
    }
  });
});

describe("ending an app's sign-in", () => {
  it("DELETE revokes the family; an unknown token gets the same 204", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const first = await signInWithRefresh(subject, email);
    const signedOut = await subject.call(
      "/api/auth/token/refresh",
      { refresh_token: first.refresh_token },
      undefined,
      "DELETE",
    );
    expect(signedOut.status).toBe(204);
    expect(await refusalCode(await refresh(subject, first.refresh_token), 401)).toBe(
      "invalid_credentials",
    );
    const unknown = await subject.call(
      "/api/auth/token/refresh",
      { refresh_token: "y".repeat(43) },
      undefined,
      "DELETE",
    );
    expect(unknown.status).toBe(204);
  });

  it("a password change that signs out the others ends every family", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    const app = await signInWithRefresh(subject, email);
    subject.clock.now += 2000;
    const own = await subject.call("/api/auth/token", { email, password: PASSWORD });
    const { token } = (await own.json()) as TokenBody;
    const changed = await subject.call(
      "/api/auth/password",
      { current_password: PASSWORD, password: "a wholly new passphrase" },
      token,
    );
    expect(changed.status).toBe(200);
    expect(await refusalCode(await refresh(subject, app.refresh_token), 401)).toBe(
      "invalid_credentials",
    );
  });

  it("a ban ends every family, and deleting the account deletes them", async () => {
    const subject = await twoFactorApp();
    const banned = await signedUp(subject);
    const bannedApp = await signInWithRefresh(subject, banned.email);
    const operator = await signedUp(subject);
    await subject.database.run("UPDATE users SET role = 'admin' WHERE id = ?", [operator.id]);
    subject.clock.now += 2000;
    const operatorToken = (
      (await (
        await subject.call("/api/auth/token", { email: operator.email, password: PASSWORD })
      ).json()) as TokenBody
    ).token;
    const ban = await subject.call(
      `/api/admin/users/${banned.id}/ban`,
      { reason: "spam" },
      operatorToken,
    );
    expect(ban.status).toBe(200);
    expect(await refusalCode(await refresh(subject, bannedApp.refresh_token), 401)).toBe(
      "invalid_credentials",
    );

    const leaving = await signedUp(subject);
    const leavingApp = await signInWithRefresh(subject, leaving.email);
    const deleted = await subject.call(
      "/api/auth/me",
      { password: PASSWORD },
      leavingApp.token,
      "DELETE",
    );
    expect(deleted.status).toBe(204);
    const rows = await subject.database.all(
      "SELECT id FROM refresh_token_families WHERE user_id = ?",
      [leaving.id],
    );
    expect(rows).toEqual([]);
    expect(await refusalCode(await refresh(subject, leavingApp.refresh_token), 401)).toBe(
      "invalid_credentials",
    );
  });
});

describe("a family's end, on the real clock", () => {
  const folder = mkdtempSync(join(tmpdir(), "tessera-refresh-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("ends when its lifetime is over, however often it was refreshed", async () => {
    const database = openSqliteFile(join(folder, "app.db"));
    await applyMigrations(database, accountMigrations);
    const accounts = accountRoutes({
      ...sqlAccountStores(database),
      secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
      passwords: { iterations: 1000 },
      refreshTokenLifetimeSeconds: 2,
    });
    const handle = routeRequests(accounts.routes);
    const call = async (path: string, body: unknown) =>
      (await handle(
        new Request(`https://app.example${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { clientAddress: "203.0.113.9" },
      ))!;
    const email = "clock@example.com";
    expect((await call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
    const signedIn = await call("/api/auth/token", { email, password: PASSWORD, refresh: true });
    const first = (await signedIn.json()) as TokenBody;
    expect(first.refresh_expires_in).toBe(2);
    const next = await call("/api/auth/token/refresh", { refresh_token: first.refresh_token });
    expect(next.status).toBe(200);
    const { refresh_token } = (await next.json()) as TokenBody;
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await call("/api/auth/token/refresh", { refresh_token });
    expect(late.status).toBe(401);
  });
});
