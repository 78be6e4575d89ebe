// An operator acting as a user: the token carries `act`, lasts at most an hour, changes no
// credential on any route (walked here, the ones added later included by the list the API key
// test shares), cannot target an operator or a banned user, stops for good, and each start
// and stop lands in the trail. The pages do the same with a session and a banner.
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { IMPERSONATION_LIFETIME_SECONDS } from "../src/admin/impersonation.js";
import { RECENT_SIGN_IN_MS } from "../src/index.js";
import { CREDENTIAL_ROUTES } from "./credential-routes.js";
import { PASSWORD, type TwoFactorApp, twoFactorApp } from "./two-factor-app.js";

/** A new user with a password, their id and a fresh token. */
async function signedUp(subject: TwoFactorApp) {
  const email = `user-${crypto.randomUUID()}@example.com`;
  const created = await subject.call("/api/auth/signup", { email, password: PASSWORD });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const token = await subject.call("/api/auth/token", { email, password: PASSWORD });
  return { email, id, bearer: ((await token.json()) as { token: string }).token };
}

/** A new user with the `admin` role, signed in after it was given. */
async function operatorOf(subject: TwoFactorApp) {
  const operator = await signedUp(subject);
  await subject.database.run("UPDATE users SET role = 'admin' WHERE id = ?", [operator.id]);
  return operator;
}

async function impersonate(subject: TwoFactorApp, operatorBearer: string, targetId: number) {
  return subject.call(`/api/admin/users/${targetId}/impersonate`, {}, operatorBearer);
}

async function tokenActingAs(subject: TwoFactorApp, operatorBearer: string, targetId: number) {
  const answer = await impersonate(subject, operatorBearer, targetId);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("cache-control")).toBe("no-store");
  return ((await answer.json()) as { token: string; expires_in: number }).token;
}

async function refusalCode(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  return ((await response.json()) as { error: { code: string } }).error.code;
}

async function trail(subject: TwoFactorApp, userId: number) {
  return subject.database.all<{ type: string; actor_id: number | null }>(
    "SELECT type, actor_id FROM audit_events WHERE user_id = ? AND type LIKE 'user.impersonation%' ORDER BY id",
    [userId],
  );
}

describe("an operator's token acting as a user", () => {
  it("acts as the user for at most an hour, says who acts, and is recorded", async () => {
    const subject = await twoFactorApp();
    const operator = await operatorOf(subject);
    const target = await signedUp(subject);
    const token = await tokenActingAs(subject, operator.bearer, target.id);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: String(target.id),
      act: { sub: String(operator.id) },
      amr: ["impersonation"],
    });
    expect(claims.exp! - claims.iat!).toBe(IMPERSONATION_LIFETIME_SECONDS);
    const me = await subject.call("/api/auth/me", undefined, token, "GET");
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(target.email);
    expect(await trail(subject, target.id)).toEqual([
      { type: "user.impersonation_started", actor_id: operator.id },
    ]);

    subject.clock.now += IMPERSONATION_LIFETIME_SECONDS * 1000;
    expect((await subject.call("/api/auth/me", undefined, token, "GET")).status).toBe(401);
  });

  it("changes no password, address, factor or key, on any route, however fresh", async () => {
    const subject = await twoFactorApp();
    const operator = await operatorOf(subject);
    const target = await signedUp(subject);
    const key = await subject.call("/api/auth/keys", { name: "theirs" }, target.bearer);
    expect(key.status).toBe(201);
    const keyId = ((await key.json()) as { api_key: { id: number } }).api_key.id;
    const token = await tokenActingAs(subject, operator.bearer, target.id);
    const routes = [...CREDENTIAL_ROUTES, ["DELETE", `/api/auth/keys/${keyId}`, {}] as const];
    for (const [method, path, body] of routes) {
      const refused = await subject.call(path, body, token, method);
      expect(await refusalCode(refused, 403), `${method} ${path}`).toBe(
        "impersonation_not_allowed",
      );
    }
    // Nothing changed: the user's one key, their password, no TOTP, no new address waiting.
    expect(await subject.database.all("SELECT id FROM api_keys")).toEqual([{ id: keyId }]);
    expect(await subject.database.all("SELECT user_id FROM user_totp")).toEqual([]);
    expect(await subject.database.all("SELECT user_id FROM email_changes")).toEqual([]);
    const own = await subject.call("/api/auth/token", { email: target.email, password: PASSWORD });
    expect(own.status).toBe(200);
    // What the user may do without changing credentials, the operator may do as them.
    expect((await subject.call("/api/auth/keys", undefined, token, "GET")).status).toBe(200);
  });

  it("is never given for an operator or a banned user, nor to anyone but an operator", async () => {
    const subject = await twoFactorApp();
    const operator = await operatorOf(subject);
    const other = await operatorOf(subject);
    const banned = await signedUp(subject);
    const target = await signedUp(subject);
    const ban = await subject.call(
      `/api/admin/users/${banned.id}/ban`,
      { reason: "spam" },
      operator.bearer,
    );
    expect(ban.status).toBe(200);
    for (const id of [other.id, operator.id, banned.id]) {
      const refused = await impersonate(subject, operator.bearer, id);
      expect(await refusalCode(refused, 409)).toBe("not_impersonable");
    }
    expect(await refusalCode(await impersonate(subject, operator.bearer, 999_999), 404)).toBe(
      "not_found",
    );
    // A member, and the operator's token acting as someone, get the 404 of a route not served.
    const asTarget = await tokenActingAs(subject, operator.bearer, target.id);
    for (const bearer of [target.bearer, asTarget]) {
      const refused = await impersonate(subject, bearer, target.id);
      expect(await refusalCode(refused, 404)).toBe("not_found");
    }
    expect(await trail(subject, banned.id)).toEqual([]);
    expect(await trail(subject, other.id)).toEqual([]);
  });

  it("stops for good, and a stop is recorded once", async () => {
    const subject = await twoFactorApp();
    const operator = await operatorOf(subject);
    const target = await signedUp(subject);
    const first = await tokenActingAs(subject, operator.bearer, target.id);
    const second = await tokenActingAs(subject, operator.bearer, target.id);
    // Only a token acting as someone may stop; the user's own gets the 404.
    const notActing = await subject.call("/api/admin/impersonation/stop", {}, target.bearer);
    expect(await refusalCode(notActing, 404)).toBe("not_found");
    expect((await subject.call("/api/admin/impersonation/stop", {}, first)).status).toBe(204);
    // Every token the operator was given until the stop ends with it, in the same second too.
    for (const token of [first, second]) {
      expect((await subject.call("/api/auth/me", undefined, token, "GET")).status).toBe(401);
      const again = await subject.call("/api/admin/impersonation/stop", {}, token);
      expect(await refusalCode(again, 404)).toBe("not_found");
    }
    expect(await trail(subject, target.id)).toEqual([
      { type: "user.impersonation_started", actor_id: operator.id },
      { type: "user.impersonation_started", actor_id: operator.id },
      { type: "user.impersonation_stopped", actor_id: operator.id },
    ]);
    // The user's own token never stopped working; a later impersonation works again.
    expect((await subject.call("/api/auth/me", undefined, target.bearer, "GET")).status).toBe(200);
    subject.clock.now += 1000;
    const later = await tokenActingAs(subject, operator.bearer, target.id);
    expect((await subject.call("/api/auth/me", undefined, later, "GET")).status).toBe(200);
  });

  it("ends when its operator stops being one, or is banned", async () => {
    const subject = await twoFactorApp();
    const operator = await operatorOf(subject);
    const target = await signedUp(subject);
    const token = await tokenActingAs(subject, operator.bearer, target.id);
    await subject.database.run("UPDATE users SET role = 'user' WHERE id = ?", [operator.id]);
    expect((await subject.call("/api/auth/me", undefined, token, "GET")).status).toBe(401);
    await subject.database.run("UPDATE users SET role = 'admin' WHERE id = ?", [operator.id]);
    expect((await subject.call("/api/auth/me", undefined, token, "GET")).status).toBe(200);
    // Made an operator meanwhile, the target cannot be acted as any more.
    await subject.database.run("UPDATE users SET role = 'admin' WHERE id = ?", [target.id]);
    expect((await subject.call("/api/auth/me", undefined, token, "GET")).status).toBe(401);
  });
});

describe("an operator acting as a user on the pages", () => {
  it("signs the browser in as the user with a banner, refuses credential changes, and stops back to the operator", async () => {
    const subject = await twoFactorApp();
    const operator = await operatorOf(subject);
    const target = await signedUp(subject);
    const page = subject.browser();
    expect((await page.form("/login", { email: operator.email, password: PASSWORD })).status).toBe(
      303,
    );
    const user = await page.get(`/admin/users/${target.id}`);
    expect(await user.text()).toContain(`action="/admin/users/${target.id}/impersonate"`);

    const started = await page.form(`/admin/users/${target.id}/impersonate`);
    expect(started.status).toBe(303);
    expect(started.headers.get("location")).toBe("/account");
    const account = await (await page.get("/account")).text();
    expect(account).toContain(`You are acting as ${target.email}, as an administrator.`);
    expect(account).toContain('action="/admin/impersonation/stop"');
    // The operators' pages are not theirs while they act as a user.
    expect((await page.get("/admin/users")).status).toBe(404);
    // However recent the sign-in, no credential changes from this browser.
    const changed = await page.form("/account/password", {
      current_password: PASSWORD,
      password: "a brand new passphrase",
      password_confirmation: "a brand new passphrase",
    });
    expect(changed.status).toBe(403);
    const stillOwn = await subject.call("/api/auth/token", {
      email: target.email,
      password: PASSWORD,
    });
    expect(stillOwn.status).toBe(200);

    const stopped = await page.form("/admin/impersonation/stop");
    expect(stopped.status).toBe(303);
    expect(stopped.headers.get("location")).toBe(`/admin/users/${target.id}`);
    const back = await page.get(`/admin/users/${target.id}`);
    expect(back.status).toBe(200);
    const backText = await back.text();
    expect(backText).toContain("You are yourself again.");
    expect(backText).not.toContain("You are acting as");
    expect(await trail(subject, target.id)).toEqual([
      { type: "user.impersonation_started", actor_id: operator.id },
      { type: "user.impersonation_stopped", actor_id: operator.id },
    ]);
    // Stopping restored the operator's own sign-in as it was: not a fresh one.
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const stale = await page.json("/account/security/passkeys/options");
    expect(stale.status).toBe(403);
  });

  it("ends at the operator's next page once they may no longer act, or stopped elsewhere", async () => {
    const subject = await twoFactorApp();
    const operator = await operatorOf(subject);
    const target = await signedUp(subject);
    const page = subject.browser();
    await page.form("/login", { email: operator.email, password: PASSWORD });
    await page.form(`/admin/users/${target.id}/impersonate`);
    expect((await page.get("/account")).status).toBe(200);
    // The role taken away: the session is signed out before the page is written.
    await subject.database.run("UPDATE users SET role = 'user' WHERE id = ?", [operator.id]);
    const refused = await page.get("/account");
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toMatch(/^\/login/);

    // A stop of another of their impersonations (a token's) ends this one too.
    await subject.database.run("UPDATE users SET role = 'admin' WHERE id = ?", [operator.id]);
    const again = subject.browser();
    await again.form("/login", { email: operator.email, password: PASSWORD });
    subject.clock.now += 1000;
    await again.form(`/admin/users/${target.id}/impersonate`);
    expect((await again.get("/account")).status).toBe(200);
    const token = await tokenActingAs(subject, operator.bearer, target.id);
    subject.clock.now += 1000;
    expect((await subject.call("/api/admin/impersonation/stop", {}, token)).status).toBe(204);
    expect((await again.get("/account")).status).toBe(303);
  });

  it("ends by itself after an hour, and a stop without an impersonation is a 404 page", async () => {
    const subject = await twoFactorApp();
    const operator = await operatorOf(subject);
    const target = await signedUp(subject);
    const page = subject.browser();
    await page.form("/login", { email: operator.email, password: PASSWORD });
    expect((await page.form("/admin/impersonation/stop")).status).toBe(404);
    await page.form(`/admin/users/${target.id}/impersonate`);
    expect((await page.get("/account")).status).toBe(200);
    subject.clock.now += IMPERSONATION_LIFETIME_SECONDS * 1000;
    const ended = await page.get("/account");
    expect(ended.status).toBe(303);
    expect(ended.headers.get("location")).toMatch(/^\/login/);
  });
});
