// The operators' routes in the app, over real HTTP on the suite's engine: only a confirmed
// ADMIN_EMAILS address (or the admin role) gets past the 404 of /api/admin; a ban shuts every
// way in at once (token, API key, cookie session, password, sign-in link) until lifted or over,
// and each change lands in the audit trail with the operator as actor.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, linkIn, pageText } from "./support/browser.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
const PASSWORD = "correct horse battery";
const OPERATOR = `ops-${Date.now()}@example.com`;
let server: TestServer;
let operatorToken: string;

beforeAll(async () => {
  server = await startTestServer(
    {
      TRUST_PROXY: "1",
      APP_URL: "https://app.example",
      ADMIN_EMAILS: ` ${OPERATOR.toUpperCase()} `,
    },
    { mailer },
  );
  await signUpConfirmed(OPERATOR);
  operatorToken = await tokenOf(OPERATOR);
});
afterAll(() => server.stop());

let counter = 0;
const uniqueEmail = () => `member${++counter}.${Date.now()}@example.com`;

async function call(
  method: string,
  path: string,
  options: { token?: string | undefined; json?: unknown } = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": newClientAddress() };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.json === undefined ? null : JSON.stringify(options.json),
  });
  const text = await response.text();
  return {
    status: response.status,
    link: response.headers.get("link"),
    // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as JSON.parse's
    body: (text ? JSON.parse(text) : undefined) as any,
  };
}

async function signUp(email = uniqueEmail()) {
  const created = await call("POST", "/api/auth/signup", { json: { email, password: PASSWORD } });
  expect(created.status).toBe(201);
  return { email, id: created.body.id as number };
}

/** Signs up on the page, which mails the confirmation link, and follows the link. */
async function signUpConfirmed(email: string) {
  const browser = new Browser(server.url);
  expect((await browser.post("/signup", { email, password: PASSWORD })).status).toBe(303);
  await server.deliverMail();
  const mail = mailer.sent.filter((sent) => sent.to === email).at(-1)!;
  const link = linkIn(mail.text, "/confirmations");
  expect((await browser.post(link.path)).status).toBe(303);
}

async function tokenOf(email: string): Promise<string> {
  const answer = await call("POST", "/api/auth/token", { json: { email, password: PASSWORD } });
  expect(answer.status).toBe(200);
  return answer.body.token;
}

async function auditOf(userId: number) {
  return server.query<{ type: string; actor_id: number | null; details: string }>(
    "SELECT type, actor_id, details FROM audit_events WHERE user_id = ? ORDER BY id",
    userId,
  );
}

const ADMIN_ROUTES = [
  ["GET", "/api/admin/users"],
  ["GET", "/api/admin/users/1"],
  ["POST", "/api/admin/users/1/ban"],
  ["POST", "/api/admin/users/1/unban"],
  ["POST", "/api/admin/users/1/sessions/revoke"],
  ["GET", "/api/admin/audit"],
] as const;

describe("who may use /api/admin", () => {
  it("answers 404 to everyone but a confirmed operator with a token", async () => {
    const member = await signUp();
    const memberToken = await tokenOf(member.email);
    const keyOfOperator = await call("POST", "/api/auth/keys", {
      token: operatorToken,
      json: { name: "ops" },
    });
    expect(keyOfOperator.status).toBe(201);
    for (const [method, path] of ADMIN_ROUTES) {
      const json = method === "POST" ? { reason: "x" } : undefined;
      for (const token of [undefined, memberToken, keyOfOperator.body.key as string]) {
        const answer = await call(method, path, { token, json });
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body.error.code).toBe("not_found");
      }
    }
    expect((await call("GET", "/api/admin/users", { token: operatorToken })).status).toBe(200);
  });

  it("keeps a listed address out until it is confirmed", async () => {
    const restart = await startTestServer(
      { TRUST_PROXY: "1", APP_URL: "https://app.example", ADMIN_EMAILS: "late@example.com" },
      { mailer: new MemoryMailer() },
    );
    try {
      const headers = { "content-type": "application/json", "x-forwarded-for": newClientAddress() };
      const credentials = JSON.stringify({ email: "late@example.com", password: PASSWORD });
      await fetch(`${restart.url}/api/auth/signup`, { method: "POST", headers, body: credentials });
      const signedIn = await fetch(`${restart.url}/api/auth/token`, {
        method: "POST",
        headers,
        body: credentials,
      });
      const { token } = (await signedIn.json()) as { token: string };
      const listed = await fetch(`${restart.url}/api/admin/users`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(listed.status).toBe(404);
    } finally {
      await restart.stop();
    }
  });
});

describe("finding users", () => {
  it("searches by email, pages by id keeping the query, and shows one with its counts", async () => {
    const stamp = Date.now();
    const found = [];
    for (let index = 0; index < 3; index += 1) {
      found.push(await signUp(`needle${index}.${stamp}@example.com`));
    }
    const first = await call("GET", `/api/admin/users?query=NEEDLE&limit=2`, {
      token: operatorToken,
    });
    expect(first.status).toBe(200);
    expect(first.body.map((user: { email: string }) => user.email)).toEqual([
      found[2]!.email,
      found[1]!.email,
    ]);
    expect(first.body[0]).toMatchObject({ role: "user", ban: null, confirmed_at: null });
    expect(first.link).toBe(
      `</api/admin/users?limit=2&after=${found[1]!.id}&query=NEEDLE>; rel="next"`,
    );
    const next = await call("GET", `/api/admin/users?limit=2&after=${found[1]!.id}&query=NEEDLE`, {
      token: operatorToken,
    });
    expect(next.body.map((user: { id: number }) => user.id)).toEqual([found[0]!.id]);

    const shown = await call("GET", `/api/admin/users/${found[0]!.id}`, { token: operatorToken });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      email: found[0]!.email,
      admin: false,
      api_keys: 0,
      mfa: { totp: false, passkeys: 0 },
      last_sign_in: null,
    });
    expect(shown.body.password_digest).toBeUndefined();
    expect((await call("GET", "/api/admin/users/999999", { token: operatorToken })).status).toBe(
      404,
    );
    expect((await call("GET", "/api/admin/users?limit=0", { token: operatorToken })).status).toBe(
      400,
    );
  });
});

describe("a ban", () => {
  it("stops the user's token, API key and session at once, and every way back in until lifted", async () => {
    const target = await signUp();
    const token = await tokenOf(target.email);
    const key = (await call("POST", "/api/auth/keys", { token, json: { name: "ci" } })).body.key;
    const browser = new Browser(server.url);
    expect((await browser.post("/login", { email: target.email, password: PASSWORD })).status).toBe(
      303,
    );
    expect((await browser.get("/account")).status).toBe(200);

    const banned = await call("POST", `/api/admin/users/${target.id}/ban`, {
      token: operatorToken,
      json: { reason: "  spam  " },
    });
    expect(banned.status).toBe(200);
    expect(banned.body.ban).toMatchObject({ reason: "spam", until: null, active: true });

    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: key })).status).toBe(401);
    expect((await browser.get("/account")).status).toBe(303);
    const password = await call("POST", "/api/auth/token", {
      json: { email: target.email, password: PASSWORD },
    });
    expect(password.status).toBe(403);
    expect(password.body.error).toEqual({
      status: 403,
      code: "account_banned",
      message: "This account is banned.",
    });
    const page = await new Browser(server.url).post("/login", {
      email: target.email,
      password: PASSWORD,
    });
    expect(page.status).toBe(303);
    expect(page.location).toBe("/login");
    // A sign-in link is refused as well, after it was used up.
    const linkBrowser = new Browser(server.url);
    await linkBrowser.post("/magic_link", { email: target.email });
    await server.deliverMail();
    const link = linkIn(mailer.last(target.email)!.text, "/magic_link");
    const used = await linkBrowser.post(link.path);
    expect(used.location).toBe("/login");
    expect(pageText((await linkBrowser.follow(used)).html)).toContain("This account is banned.");

    const lifted = await call("POST", `/api/admin/users/${target.id}/unban`, {
      token: operatorToken,
    });
    expect(lifted.body.ban).toBeNull();
    expect((await tokenOf(target.email)).length).toBeGreaterThan(20);
    // The key works again: a ban does not revoke it, it only keeps its holder out meanwhile.
    expect((await call("GET", "/api/auth/me", { token: key })).status).toBe(200);

    const trail = await auditOf(target.id);
    const operator = (await call("GET", "/api/auth/me", { token: operatorToken })).body.id;
    const changes = trail.filter(
      (row) => row.type === "user.banned" || row.type === "user.unbanned",
    );
    expect(changes.map((row) => [row.type, row.actor_id, JSON.parse(row.details)])).toEqual([
      ["user.banned", operator, { reason: "spam", until: null }],
      ["user.unbanned", operator, {}],
    ]);
  });

  it("ends by itself at its time, on the real clock", async () => {
    const target = await signUp();
    const until = new Date(Date.now() + 2_000).toISOString().slice(0, 19).replace("T", " ");
    const banned = await call("POST", `/api/admin/users/${target.id}/ban`, {
      token: operatorToken,
      json: { reason: "cool down", until },
    });
    expect(banned.status).toBe(200);
    const during = await call("POST", "/api/auth/token", {
      json: { email: target.email, password: PASSWORD },
    });
    expect(during.body.error.message).toBe(`This account is banned until ${until} UTC.`);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await tokenOf(target.email)).length).toBeGreaterThan(20);
  });

  it("refuses an operator, a bad reason or end, and an unknown user", async () => {
    const target = await signUp();
    const operatorId = (await call("GET", "/api/auth/me", { token: operatorToken })).body.id;
    const ban = (id: number, json: unknown) =>
      call("POST", `/api/admin/users/${id}/ban`, { token: operatorToken, json });
    const self = await ban(operatorId, { reason: "oops" });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe("admin_not_bannable");
    expect((await ban(target.id, { reason: 3 })).status).toBe(400);
    expect((await ban(target.id, {})).status).toBe(400);
    const blank = await ban(target.id, { reason: "   ", until: "2020-01-01 00:00:00" });
    expect(blank.status).toBe(422);
    expect(blank.body.error.fields).toEqual({
      reason: ["can't be blank"],
      until: ["must be a time in the future"],
    });
    expect((await ban(target.id, { reason: "x", until: "tomorrow" })).body.error.fields).toEqual({
      until: ["is invalid"],
    });
    expect((await ban(target.id, { reason: "r".repeat(501) })).status).toBe(422);
    expect((await ban(999_999, { reason: "x" })).status).toBe(404);
    expect((await tokenOf(target.email)).length).toBeGreaterThan(20);
  });
});

describe("ending a user's sign-ins", () => {
  it("stops their tokens while their password still signs them in", async () => {
    const target = await signUp();
    const token = await tokenOf(target.email);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const revoked = await call("POST", `/api/admin/users/${target.id}/sessions/revoke`, {
      token: operatorToken,
    });
    expect(revoked.status).toBe(204);
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const fresh = await tokenOf(target.email);
    expect((await call("GET", "/api/auth/me", { token: fresh })).status).toBe(200);
  });
});

describe("the audit trail for operators", () => {
  it("filters by user and type, and keeps the filters in the next page's link", async () => {
    const target = await signUp();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await call("POST", "/api/auth/token", { json: { email: target.email, password: "wrong" } });
    }
    const page = await call(
      "GET",
      `/api/admin/audit?user_id=${target.id}&type=user.sign_in_failed&limit=2`,
      { token: operatorToken },
    );
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(2);
    expect(page.body.every((event: { type: string }) => event.type === "user.sign_in_failed")).toBe(
      true,
    );
    expect(page.link).toBe(
      `</api/admin/audit?limit=2&after=${page.body[1].id}&user_id=${target.id}&type=user.sign_in_failed>; rel="next"`,
    );
    expect(
      (await call("GET", "/api/admin/audit?user_id=abc", { token: operatorToken })).status,
    ).toBe(400);
    expect((await call("GET", "/api/admin/audit?type=%00", { token: operatorToken })).status).toBe(
      400,
    );
  });
});

describe("the operators' pages", () => {
  async function operatorBrowser() {
    const browser = new Browser(server.url);
    const signedIn = await browser.post("/login", { email: OPERATOR, password: PASSWORD });
    expect(signedIn.status).toBe(303);
    return browser;
  }

  it("are a 404 page to a member, and send a visitor to sign in", async () => {
    const member = await signUp();
    const browser = new Browser(server.url);
    await browser.post("/login", { email: member.email, password: PASSWORD });
    for (const path of ["/admin/users", `/admin/users/${member.id}`]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(404);
      expect(page.html).not.toContain(member.email.replace("@", "&#64;"));
    }
    expect((await browser.post(`/admin/users/${member.id}/ban`, { reason: "x" })).status).toBe(404);
    expect((await new Browser(server.url).get("/admin/users")).status).toBe(303);
  });

  it("find a user, show them, ban them with a form that says what is wrong, and lift it", async () => {
    const target = await signUp(`page-target-${Date.now()}@example.com`);
    const targetBrowser = new Browser(server.url);
    await targetBrowser.post("/login", { email: target.email, password: PASSWORD });
    const browser = await operatorBrowser();

    const found = await browser.get(`/admin/users?query=${encodeURIComponent("PAGE-TARGET")}`);
    expect(found.status).toBe(200);
    expect(found.html).toContain(`href="/admin/users/${target.id}"`);
    expect(pageText(found.html)).toContain("Active");

    const shown = await browser.get(`/admin/users/${target.id}`);
    expect(shown.status).toBe(200);
    const text = pageText(shown.html);
    expect(text).toContain("API keys 0");
    expect(text).toContain("Ban this user");
    expect(text).toContain("Account created");

    const refused = await browser.post(`/admin/users/${target.id}/ban`, {
      reason: "",
      until: "yesterday",
    });
    expect(refused.status).toBe(422);
    expect(pageText(refused.html)).toContain("Reason can't be blank");
    expect(pageText(refused.html)).toContain("Until is invalid");
    expect((await targetBrowser.get("/account")).status).toBe(200);

    const banned = await browser.post(`/admin/users/${target.id}/ban`, {
      reason: "abuse",
      until: "",
    });
    expect(banned.status).toBe(303);
    const after = await browser.follow(banned);
    expect(pageText(after.html)).toContain(
      "The user is banned: every sign-in of theirs has ended.",
    );
    expect(pageText(after.html)).toContain("Banned");
    expect((await targetBrowser.get("/account")).status).toBe(303);

    const lifted = await browser.post(`/admin/users/${target.id}/unban`);
    expect(lifted.status).toBe(303);
    expect(pageText((await browser.follow(lifted)).html)).toContain("The ban is lifted.");
    const operatorId = (await call("GET", "/api/auth/me", { token: operatorToken })).body.id;
    const trail = await auditOf(target.id);
    expect(
      trail
        .filter((row) => row.type.startsWith("user.") && row.actor_id === operatorId)
        .map((row) => row.type),
    ).toEqual(["user.banned", "user.unbanned"]);
  });

  it("refuse to ban an operator, saying why", async () => {
    const browser = await operatorBrowser();
    const operatorId = (await call("GET", "/api/auth/me", { token: operatorToken })).body.id;
    const page = await browser.get(`/admin/users/${operatorId}`);
    expect(pageText(page.html)).toContain(
      "An administrator cannot be banned: revoke the role first.",
    );
    const refused = await browser.post(`/admin/users/${operatorId}/ban`, { reason: "x" });
    expect(refused.status).toBe(409);
  });
});

describe("acting as a user", () => {
  it("over JSON: a token of at most an hour that changes no credential, until stopped", async () => {
    const target = await signUp();
    const operatorId = (await call("GET", "/api/auth/me", { token: operatorToken })).body.id;
    const started = await call("POST", `/api/admin/users/${target.id}/impersonate`, {
      token: operatorToken,
    });
    expect(started.status).toBe(200);
    const token = started.body.token as string;
    expect(started.body.expires_in).toBeLessThanOrEqual(3600);
    const me = await call("GET", "/api/auth/me", { token });
    expect(me.body.email).toBe(target.email);
    const changed = await call("POST", "/api/auth/password", {
      token,
      json: { current_password: PASSWORD, password: "another long passphrase" },
    });
    expect(changed.status).toBe(403);
    expect(changed.body.error.code).toBe("impersonation_not_allowed");
    const operatorOnly = await call("GET", "/api/admin/users", { token });
    expect(operatorOnly.status).toBe(404);

    expect((await call("POST", "/api/admin/impersonation/stop", { token })).status).toBe(204);
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
    expect(await tokenOf(target.email)).toBeTruthy();
    const trail = (await auditOf(target.id)).filter((row) => row.type.includes("impersonation"));
    expect(trail.map((row) => [row.type, row.actor_id])).toEqual([
      ["user.impersonation_started", operatorId],
      ["user.impersonation_stopped", operatorId],
    ]);
    const refused = await call("POST", `/api/admin/users/${operatorId}/impersonate`, {
      token: operatorToken,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("not_impersonable");
  });

  it("on the pages: the user's pages with a banner on each, and back to the operator", async () => {
    const target = await signUp();
    const browser = new Browser(server.url);
    expect((await browser.post("/login", { email: OPERATOR, password: PASSWORD })).status).toBe(
      303,
    );
    const started = await browser.post(`/admin/users/${target.id}/impersonate`);
    expect(started.status).toBe(303);
    for (const path of ["/account", "/", "/notes", "/account/sessions"]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(200);
      expect(pageText(page.html), path).toContain(
        `You are acting as ${target.email}, as an administrator.`,
      );
    }
    const stopped = await browser.post("/admin/impersonation/stop");
    expect(stopped.status).toBe(303);
    const back = await browser.follow(stopped);
    expect(back.status).toBe(200);
    expect(pageText(back.html)).toContain("You are yourself again.");
    expect(pageText(back.html)).not.toContain("You are acting as");
  });
});
