import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { createJwtIssuer } from "@tessera/bearer";
import { routeRequests } from "@tessera/http";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { decodeJwt } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { accountRoutes, RECENT_SIGN_IN_MS } from "../src/index.js";
import { CREDENTIAL_ROUTES } from "./credential-routes.js";
import { jsonCaller } from "./json-caller.js";
import {
  fullSignInToken,
  mfaTokenOf,
  ORIGIN,
  PASSWORD,
  passwordlessSignIn,
  type TwoFactorApp,
  twoFactorApp,
  withTotpAndPasskey,
} from "./two-factor-app.js";

const SECRET_KEY_BASE = "a-secret-key-base-of-at-least-32-characters";

/** A new user with a password and a token of their sign-up's password sign-in. */
async function signedUp(subject: TwoFactorApp) {
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await subject.call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  const token = await subject.call("/api/auth/token", { email, password: PASSWORD });
  return { email, bearer: ((await token.json()) as { token: string }).token };
}

/** The code of a JSON refusal, after checking its status. */
async function refusalCode(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe("an API key", () => {
  it("never manages credentials or factors", async () => {
    const subject = await twoFactorApp();
    const { bearer } = await signedUp(subject);
    const created = await subject.call("/api/auth/keys", { name: "deploy" }, bearer);
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    for (const [method, path, body] of CREDENTIAL_ROUTES) {
      const refused = await subject.call(path, body, key, method);
      expect(await refusalCode(refused, 403), `${method} ${path}`).toBe("api_key_not_allowed");
    }
    // Nothing was made or removed: the one key, no TOTP, the user.
    expect(await subject.database.all("SELECT id FROM api_keys")).toHaveLength(1);
    expect(await subject.database.all("SELECT user_id FROM user_totp")).toHaveLength(0);
    expect(await subject.database.all("SELECT id FROM users")).toHaveLength(1);
    // It still reads what it may.
    expect((await subject.call("/api/auth/keys", undefined, key, "GET")).status).toBe(200);
  });
});

describe("a token of a sign-in more than 10 minutes old", () => {
  it("is asked to confirm before a credential changes, and /api/auth/reauthenticate gives a fresh one", async () => {
    const subject = await twoFactorApp();
    const { bearer } = await signedUp(subject);
    // Within the ten minutes, the sign-in's own token may.
    subject.clock.now += RECENT_SIGN_IN_MS;
    expect((await subject.call("/api/auth/passkeys/options", {}, bearer)).status).toBe(200);
    subject.clock.now += 1000;
    const stale = await subject.call("/api/auth/keys", { name: "ci" }, bearer);
    expect(await refusalCode(stale, 403)).toBe("reauthentication_required");
    const staleOptions = await subject.call("/api/auth/passkeys/options", {}, bearer);
    expect(await refusalCode(staleOptions, 403)).toBe("reauthentication_required");
    expect(await subject.database.all("SELECT id FROM api_keys")).toHaveLength(0);

    const wrong = await subject.call("/api/auth/reauthenticate", { password: "no" }, bearer);
    expect(await refusalCode(wrong, 401)).toBe("invalid_credentials");
    const again = await subject.call("/api/auth/reauthenticate", { password: PASSWORD }, bearer);
    expect(again.status).toBe(200);
    const { token, token_type } = (await again.json()) as { token: string; token_type: string };
    expect(token_type).toBe("Bearer");
    expect(decodeJwt(token)).toMatchObject({
      amr: ["password"],
      auth_time: Math.floor(subject.clock.now / 1000),
    });
    expect((await subject.call("/api/auth/keys", { name: "ci" }, token)).status).toBe(201);
  });

  it("deletes the account with the right password, a fresh first step, when there is no second factor", async () => {
    const subject = await twoFactorApp();
    const { bearer } = await signedUp(subject);
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const wrong = await subject.call("/api/auth/me", { password: "no" }, bearer, "DELETE");
    expect(await refusalCode(wrong, 403)).toBe("invalid_credentials");
    const deleted = await subject.call("/api/auth/me", { password: PASSWORD }, bearer, "DELETE");
    expect(deleted.status).toBe(204);
    expect(await subject.database.all("SELECT id FROM users")).toHaveLength(0);
  });

  it("with a second factor, needs it recent beside the password", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const token = await fullSignInToken(subject, user);
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const stale = await subject.call("/api/auth/me", { password: PASSWORD }, token, "DELETE");
    expect(await refusalCode(stale, 403)).toBe("reauthentication_required");
    // Confirming it is them asks for the second factor too, as a sign-in does.
    const asked = await subject.call("/api/auth/reauthenticate", { password: PASSWORD }, token);
    const again = await subject.call("/api/auth/token/mfa", {
      mfa_token: await mfaTokenOf(asked),
      code: subject.nextCode(user.key),
    });
    const fresh = ((await again.json()) as { token: string }).token;
    expect(
      (await subject.call("/api/auth/me", { password: PASSWORD }, fresh, "DELETE")).status,
    ).toBe(204);
  });
});

describe("a sign-in that is not full", () => {
  it("an emailed code, for a user with a password: a credential change asks for it", async () => {
    const subject = await twoFactorApp();
    const { email } = await signedUp(subject);
    expect((await subject.call("/api/auth/email_code", { email })).status).toBe(202);
    const code = /^(\d{6})$/m.exec(subject.mailer.sent.at(-1)!.text)![1];
    const signedIn = await subject.call("/api/auth/token/email_code", { email, code });
    const { token } = (await signedIn.json()) as { token: string };
    expect(decodeJwt(token).amr).toEqual(["email_code"]);
    const refused = await subject.call("/api/auth/keys", { name: "ci" }, token);
    expect(await refusalCode(refused, 403)).toBe("reauthentication_required");
  });

  it("is all a user without a password has, so it counts while recent", async () => {
    const subject = await twoFactorApp();
    const { token } = await passwordlessSignIn(subject);
    expect((await subject.call("/api/auth/keys", { name: "ci" }, token)).status).toBe(201);
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const stale = await subject.call("/api/auth/keys", { name: "ci" }, token);
    expect(await refusalCode(stale, 403)).toBe("reauthentication_required");
  });
});

describe("on the real clock", () => {
  const folder = mkdtempSync(join(tmpdir(), "tessera-recent-sign-in-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("a token just issued may, one whose sign-in was 11 minutes ago may not", async () => {
    const database = openSqliteFile(join(folder, "app.db"));
    await applyMigrations(database, accountMigrations);
    const accounts = accountRoutes({
      ...sqlAccountStores(database),
      secretKeyBase: SECRET_KEY_BASE,
      passwords: { iterations: 1000 },
    });
    const call = jsonCaller(routeRequests(accounts.routes), ORIGIN, "198.51.100.7");
    const email = `ada-${crypto.randomUUID()}@example.com`;
    expect((await call("POST", "/api/auth/signup", { email, password: PASSWORD })).status).toBe(
      201,
    );
    const signedIn = await call("POST", "/api/auth/token", { email, password: PASSWORD });
    const { token } = (await signedIn.json()) as { token: string };
    expect((await call("POST", "/api/auth/keys", { name: "now" }, token)).status).toBe(201);

    // The same secret signs a token whose sign-in was 11 minutes ago, still valid for an hour.
    const elevenMinutesAgo = Date.now() - 11 * 60_000;
    const earlier = createJwtIssuer({
      secrets: { current: SECRET_KEY_BASE },
      clock: () => elevenMinutesAgo,
    });
    const userId = Number(decodeJwt(token).sub);
    const old = await earlier.issue(userId, { at: elevenMinutesAgo, factors: ["password"] });
    expect((await call("GET", "/api/auth/me", undefined, old.token)).status).toBe(200);
    const refused = await call("POST", "/api/auth/keys", { name: "later" }, old.token);
    expect(await refusalCode(refused, 403)).toBe("reauthentication_required");
    database.close();
  });
});

describe("the pages", () => {
  it("ask again in place, on the security page, once the sign-in is older than 10 minutes", async () => {
    const subject = await twoFactorApp();
    const page = subject.browser();
    const email = `ada-${crypto.randomUUID()}@example.com`;
    expect((await page.form("/signup", { email, password: PASSWORD })).status).toBe(303);
    expect(await (await page.get("/account/security")).text()).not.toContain("Confirm it is you");
    expect((await page.json("/account/security/passkeys/options")).status).toBe(200);

    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    expect(await (await page.get("/account/security")).text()).toContain("Confirm it is you");
    const refused = await page.json("/account/security/passkeys/options");
    expect(await refusalCode(refused, 403)).toBe("reauthentication_required");
    const removal = await page.form("/account/security/passkeys/1/delete");
    expect(removal.status).toBe(403);
    expect(await removal.text()).toContain("This needs a recent sign-in");

    const wrong = await page.form("/account/security/reauthenticate", { password: "no" });
    expect(wrong.status).toBe(422);
    const confirmed = await page.form("/account/security/reauthenticate", { password: PASSWORD });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/account/security");
    expect((await page.json("/account/security/passkeys/options")).status).toBe(200);
  });

  it("refuse deleting an account with a second factor without a recent sign-in", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const page = subject.browser();
    await page.form("/login", { email: user.email, password: PASSWORD });
    expect(
      (await page.form("/login/second_factor", { code: subject.nextCode(user.key) })).status,
    ).toBe(303);
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const refused = await page.form("/account/delete", { password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("This needs a recent sign-in");
    expect(await subject.database.all("SELECT id FROM users")).toHaveLength(1);
    const confirmed = await page.form("/account/security/reauthenticate", {
      password: PASSWORD,
      code: subject.nextCode(user.key),
    });
    expect(confirmed.status).toBe(303);
    expect((await page.form("/account/delete", { password: PASSWORD })).status).toBe(303);
    expect(await subject.database.all("SELECT id FROM users")).toHaveLength(0);
  });
});
