// The account routes answer as GET /api/openapi.json describes them: sign-up, the password
// token, the signed-in user (read, changed, deleted), reauthentication, the password and
// address changes, the mailed sign-in code and refresh tokens, each driven through
// `documentedApi` to its success and its documented refusals; and the captcha's 400 on a
// server that has one.
import { noMailerMessage, totpCode } from "@tessera/accounts";
import { MemoryMailer } from "@tessera/mail";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GOOD_TOKEN,
  type SiteverifyDouble,
  startSiteverifyDouble,
} from "../../../test/support/siteverify-double.js";
import { linkIn } from "./support/browser.js";
import { type DocumentedApi, documentedApi } from "./support/documented-api.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";
import { decodeTotpKey } from "./support/totp-key.js";

const PASSWORD = "correct horse battery";
const OPERATOR = `operator.${Date.now()}@example.com`;
// Rate limits are met in one window (awaitWindowRoom may wait 10 s), passwords hashed often.
const SLOW = 60_000;
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const mailer = new MemoryMailer();
let server: TestServer;
let operatorToken: string;

beforeAll(async () => {
  server = await startTestServer(
    { TRUST_PROXY: "1", APP_URL: "https://app.example", ADMIN_EMAILS: OPERATOR },
    { mailer },
  );
  operatorToken = await confirmedToken(OPERATOR);
});
afterAll(() => server.stop());

let counter = 0;
const uniqueEmail = () => `openapi.accounts${++counter}.${Date.now()}@example.com`;

/** The documented API, from a client address of its own. */
const newApi = () =>
  documentedApi(server.url, { headers: { "x-forwarded-for": newClientAddress() } });

/** A call outside the routes under test (set-up), from a client address of its own. */
async function raw(
  method: string,
  path: string,
  options: { readonly token?: string; readonly json?: unknown } = {},
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
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as JSON.parse's
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
}

/** A new user with a bearer token of a fresh password sign-in. */
async function signedUp(): Promise<{ id: number; email: string; token: string }> {
  const email = uniqueEmail();
  const created = await raw("POST", "/api/auth/signup", { json: { email, password: PASSWORD } });
  expect(created.status).toBe(201);
  return { id: created.body.id, email, token: await tokenOf(email) };
}

async function tokenOf(email: string, password = PASSWORD): Promise<string> {
  const answer = await raw("POST", "/api/auth/token", { json: { email, password } });
  expect(answer.status).toBe(200);
  return answer.body.token;
}

/** Signs `email` up on the page, follows the mailed confirmation link, and signs in. */
async function confirmedToken(email: string): Promise<string> {
  const form = (path: string, body: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        "x-forwarded-for": newClientAddress(),
      },
      body: new URLSearchParams(body),
    });
  expect((await form("/signup", { email, password: PASSWORD })).status).toBe(303);
  await server.deliverMail();
  expect((await form(linkIn(mailer.last(email)!.text, "/confirmations").path, {})).status).toBe(
    303,
  );
  return tokenOf(email);
}

/** Turns TOTP on with `token` (which keeps standing for a sign-in without it). */
async function turnOnTotp(token: string): Promise<void> {
  const setup = await raw("POST", "/api/auth/mfa/totp", { token, json: { password: PASSWORD } });
  expect(setup.status).toBe(201);
  const code = totpCode(decodeTotpKey(setup.body.secret), Date.now());
  expect((await raw("POST", "/api/auth/mfa/totp/confirm", { token, json: { code } })).status).toBe(
    200,
  );
}

async function apiKeyOf(token: string): Promise<string> {
  const created = await raw("POST", "/api/auth/keys", { token, json: { name: "ci" } });
  expect(created.status).toBe(201);
  return created.body.key;
}

/** An operator's token acting as the user `id`. */
async function actingAs(id: number): Promise<string> {
  const started = await raw("POST", `/api/admin/users/${id}/impersonate`, {
    token: operatorToken,
  });
  expect(started.status).toBe(200);
  return started.body.token;
}

async function ban(id: number): Promise<void> {
  const banned = await raw("POST", `/api/admin/users/${id}/ban`, {
    token: operatorToken,
    json: { reason: "spam" },
  });
  expect(banned.status).toBe(200);
}

/** Headers of a call from another client address: its own rate limit counters. */
const fromElsewhere = () => ({ "x-forwarded-for": newClientAddress() });

/** The `error.code` of an answer. */
const codeOf = (answer: { body: { error?: { code?: string } } }) => answer.body?.error?.code;

/**
 * Makes `call` 10 times from a client address of its own, each answered with one of `allowed`,
 * and answers the 11th, which the client's limit refuses (429 with `Retry-After`).
 */
async function untilLimited(
  call: (headers: Record<string, string>) => Promise<{
    status: number;
    headers: Headers;
    body: { error?: { code?: string } };
  }>,
  allowed: readonly number[],
) {
  const headers = fromElsewhere();
  await awaitWindowRoom(10_000);
  for (let attempt = 0; attempt < 10; attempt++) {
    expect(allowed).toContain((await call(headers)).status);
  }
  const limited = await call(headers);
  expect(limited.status).toBe(429);
  expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  return limited;
}

describe("POST /api/auth/signup", () => {
  it(
    "answers 201 with the user, 400 for an unreadable body, 422 with every field, 429 past the limit",
    async () => {
      const api = await newApi();
      const email = uniqueEmail();
      const created = await api.call("POST", "/api/auth/signup", {
        body: { email, password: PASSWORD, name: "  Ada  " },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        email,
        name: "Ada",
        created_at: expect.stringMatching(TIME),
        updated_at: created.body.created_at,
      });
      const unreadable = await api.call("POST", "/api/auth/signup", {
        body: { email },
        invalidBody: true,
      });
      expect([unreadable.status, codeOf(unreadable)]).toEqual([400, "bad_request"]);
      const refused = await api.call("POST", "/api/auth/signup", {
        body: { email, password: "short", name: "n".repeat(101) },
      });
      expect(refused.status).toBe(422);
      expect(Object.keys(refused.body.error.fields).sort()).toEqual(["email", "name", "password"]);
      const limited = await untilLimited(
        (headers) =>
          api.call("POST", "/api/auth/signup", { headers, body: { email: "nope", password: "x" } }),
        [422],
      );
      expect(codeOf(limited)).toBe("rate_limited");
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("POST /api/auth/token", () => {
  it(
    "answers the token (with a refresh token when asked), 400, 401 and 429 rate_limited",
    async () => {
      const api = await newApi();
      const { email } = await signedUp();
      const granted = await api.call("POST", "/api/auth/token", {
        body: { email, password: PASSWORD, refresh: true },
      });
      expect(granted.status).toBe(200);
      expect(granted.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
      expect(granted.body.refresh_token).toEqual(expect.any(String));
      const plain = await api.call("POST", "/api/auth/token", {
        body: { email, password: PASSWORD },
      });
      expect(Object.keys(plain.body).sort()).toEqual(["expires_in", "token", "token_type"]);
      for (const body of [{ email }, { email, password: PASSWORD, refresh: "yes" }]) {
        const unreadable = await api.call("POST", "/api/auth/token", { body, invalidBody: true });
        expect([unreadable.status, codeOf(unreadable)]).toEqual([400, "bad_request"]);
      }
      const wrong = await api.call("POST", "/api/auth/token", {
        body: { email, password: "not the password" },
      });
      expect([wrong.status, codeOf(wrong)]).toEqual([401, "invalid_credentials"]);
      const limited = await untilLimited(
        (headers) =>
          api.call("POST", "/api/auth/token", {
            headers,
            body: { email: uniqueEmail(), password: "whatever1" },
          }),
        [401],
      );
      expect(codeOf(limited)).toBe("rate_limited");
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );

  it(
    "answers 403 mfa_required with its mfa_token, 403 account_banned, 429 account_throttled",
    async () => {
      const api = await newApi();
      const withTotp = await signedUp();
      await turnOnTotp(withTotp.token);
      const due = await api.call("POST", "/api/auth/token", {
        body: { email: withTotp.email, password: PASSWORD },
      });
      expect(due.status).toBe(403);
      expect(due.body).toMatchObject({
        error: { code: "mfa_required" },
        methods: expect.arrayContaining(["totp"]),
      });
      expect(due.body.mfa_token).toEqual(expect.any(String));

      const banned = await signedUp();
      await ban(banned.id);
      const refused = await api.call("POST", "/api/auth/token", {
        body: { email: banned.email, password: PASSWORD },
      });
      expect([refused.status, codeOf(refused)]).toEqual([403, "account_banned"]);

      // Ten wrong passwords for one account, each from a client of its own: the 11th waits.
      const { email } = await signedUp();
      const guess = () =>
        api.call("POST", "/api/auth/token", {
          body: { email, password: "a wrong guess" },
          headers: fromElsewhere(),
        });
      for (let attempt = 0; attempt < 10; attempt++) expect((await guess()).status).toBe(401);
      const throttled = await guess();
      expect([throttled.status, codeOf(throttled)]).toEqual([429, "account_throttled"]);
      expect(throttled.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("GET /api/auth/me", () => {
  it(
    "answers the user with its factors for a token and an API key, 401 without",
    async () => {
      const api = await newApi();
      const { token, email } = await signedUp();
      const me = await api.call("GET", "/api/auth/me", { token });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ email, name: null, mfa: { totp: false, passkeys: 0 } });
      const byKey = await api.call("GET", "/api/auth/me", { token: await apiKeyOf(token) });
      expect(byKey.body).toEqual(me.body);
      await turnOnTotp(token);
      expect((await api.call("GET", "/api/auth/me", { token })).body.mfa.totp).toBe(true);
      for (const credentials of [undefined, "not-a-token"]) {
        const refused = await api.call("GET", "/api/auth/me", { token: credentials });
        expect([refused.status, codeOf(refused)]).toEqual([401, "unauthenticated"]);
        expect(refused.headers.get("www-authenticate")).toBe("Bearer");
      }
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("PATCH /api/auth/me", () => {
  it(
    "answers the user as changed, 400 for a key that is no column, 401 and 422",
    async () => {
      const api = await newApi();
      const { token } = await signedUp();
      const changed = await api.call("PATCH", "/api/auth/me", { token, body: { name: " Grace " } });
      expect([changed.status, changed.body.name]).toEqual([200, "Grace"]);
      const byKey = await api.call("PATCH", "/api/auth/me", {
        token: await apiKeyOf(token),
        body: { name: null },
      });
      expect([byKey.status, byKey.body.name]).toEqual([200, null]);
      const unknown = await api.call("PATCH", "/api/auth/me", {
        token,
        body: { email: "x@example.com" },
        invalidBody: true,
      });
      expect([unknown.status, codeOf(unknown)]).toEqual([400, "bad_request"]);
      const refused = await api.call("PATCH", "/api/auth/me", { body: { name: "x" } });
      expect(refused.status).toBe(401);
      const tooLong = await api.call("PATCH", "/api/auth/me", {
        token,
        body: { name: "n".repeat(101) },
      });
      expect([tooLong.status, Object.keys(tooLong.body.error.fields)]).toEqual([422, ["name"]]);
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("DELETE /api/auth/me", () => {
  it(
    "answers 204, and 400, 401, the 403s of a wrong password, a key, an operator and a stale token",
    async () => {
      const api = await newApi();
      const user = await signedUp();
      const unreadable = await api.call("DELETE", "/api/auth/me", {
        token: user.token,
        body: {},
        invalidBody: true,
      });
      expect(unreadable.status).toBe(400);
      const anonymous = await api.call("DELETE", "/api/auth/me", { body: { password: PASSWORD } });
      expect(anonymous.status).toBe(401);
      const refusals = [
        [user.token, "a wrong password", "invalid_credentials"],
        [await apiKeyOf(user.token), PASSWORD, "api_key_not_allowed"],
        [await actingAs(user.id), PASSWORD, "impersonation_not_allowed"],
      ] as const;
      for (const [token, password, code] of refusals) {
        const refused = await api.call("DELETE", "/api/auth/me", { token, body: { password } });
        expect([refused.status, codeOf(refused)]).toEqual([403, code]);
      }
      // A token of a sign-in without the second factor turned on since.
      const stale = await signedUp();
      await turnOnTotp(stale.token);
      const notRecent = await api.call("DELETE", "/api/auth/me", {
        token: stale.token,
        body: { password: PASSWORD },
      });
      expect([notRecent.status, codeOf(notRecent)]).toEqual([403, "reauthentication_required"]);

      const deleted = await api.call("DELETE", "/api/auth/me", {
        token: user.token,
        body: { password: PASSWORD },
      });
      expect([deleted.status, deleted.body]).toEqual([204, undefined]);
      expect((await api.call("GET", "/api/auth/me", { token: user.token })).status).toBe(401);
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );

  it(
    "answers 409 while the user is an organization's only owner, and 429 past the limit",
    async () => {
      const api = await newApi();
      const email = uniqueEmail();
      const token = await confirmedToken(email);
      const organization = await raw("POST", "/api/orgs", { token, json: { name: "Sole Owners" } });
      expect(organization.status).toBe(201);
      const kept = await api.call("DELETE", "/api/auth/me", {
        token,
        body: { password: PASSWORD },
      });
      expect([kept.status, codeOf(kept)]).toEqual([409, "last_owner"]);
      const limited = await untilLimited(
        (headers) =>
          api.call("DELETE", "/api/auth/me", { token, headers, body: { password: "wrong guess" } }),
        [403],
      );
      expect(codeOf(limited)).toBe("rate_limited");
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("POST /api/auth/reauthenticate", () => {
  it(
    "answers a fresh token, and 400, both 401s, the 403s and 429",
    async () => {
      const api = await newApi();
      const user = await signedUp();
      const fresh = await api.call("POST", "/api/auth/reauthenticate", {
        token: user.token,
        body: { password: PASSWORD, refresh: true },
      });
      expect(fresh.status).toBe(200);
      expect(fresh.body.refresh_token).toEqual(expect.any(String));
      const unreadable = await api.call("POST", "/api/auth/reauthenticate", {
        token: user.token,
        body: {},
        invalidBody: true,
      });
      expect(unreadable.status).toBe(400);
      const anonymous = await api.call("POST", "/api/auth/reauthenticate", {
        body: { password: PASSWORD },
      });
      expect([anonymous.status, codeOf(anonymous)]).toEqual([401, "unauthenticated"]);
      const wrong = await api.call("POST", "/api/auth/reauthenticate", {
        token: user.token,
        body: { password: "a wrong one" },
      });
      expect([wrong.status, codeOf(wrong)]).toEqual([401, "invalid_credentials"]);
      for (const [token, code] of [
        [await apiKeyOf(user.token), "api_key_not_allowed"],
        [await actingAs(user.id), "impersonation_not_allowed"],
      ] as const) {
        const refused = await api.call("POST", "/api/auth/reauthenticate", {
          token,
          body: { password: PASSWORD },
        });
        expect([refused.status, codeOf(refused)]).toEqual([403, code]);
      }
      await turnOnTotp(user.token);
      const due = await api.call("POST", "/api/auth/reauthenticate", {
        token: user.token,
        body: { password: PASSWORD },
      });
      expect([due.status, codeOf(due)]).toEqual([403, "mfa_required"]);
      expect(due.body.mfa_token).toEqual(expect.any(String));
      const limited = await untilLimited(
        (headers) =>
          api.call("POST", "/api/auth/reauthenticate", {
            token: fresh.body.token,
            headers,
            body: { password: "wrong" },
          }),
        [401],
      );
      expect(codeOf(limited)).toBe("rate_limited");
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("POST /api/auth/password", () => {
  it(
    "answers a fresh token, and 400, 401, the 403s, 422 and 429",
    async () => {
      const api = await newApi();
      const user = await signedUp();
      const refusals = [
        [
          user.token,
          { current_password: "wrong", password: "a new passphrase" },
          "invalid_credentials",
        ],
        [
          await apiKeyOf(user.token),
          { current_password: PASSWORD, password: "a new passphrase" },
          "api_key_not_allowed",
        ],
        [
          await actingAs(user.id),
          { current_password: PASSWORD, password: "a new passphrase" },
          "impersonation_not_allowed",
        ],
      ] as const;
      for (const [token, body, code] of refusals) {
        const refused = await api.call("POST", "/api/auth/password", { token, body });
        expect([refused.status, codeOf(refused)]).toEqual([403, code]);
      }
      const stale = await signedUp();
      await turnOnTotp(stale.token);
      const notRecent = await api.call("POST", "/api/auth/password", {
        token: stale.token,
        body: { current_password: PASSWORD, password: "a new passphrase" },
      });
      expect([notRecent.status, codeOf(notRecent)]).toEqual([403, "reauthentication_required"]);
      const unreadable = await api.call("POST", "/api/auth/password", {
        token: user.token,
        body: { password: "a new passphrase" },
      });
      expect(unreadable.status).toBe(400);
      const anonymous = await api.call("POST", "/api/auth/password", {
        body: { current_password: PASSWORD, password: "a new passphrase" },
      });
      expect(anonymous.status).toBe(401);
      const short = await api.call("POST", "/api/auth/password", {
        token: user.token,
        body: { current_password: PASSWORD, password: "short" },
      });
      expect([short.status, Object.keys(short.body.error.fields)]).toEqual([422, ["password"]]);
      const changed = await api.call("POST", "/api/auth/password", {
        token: user.token,
        body: { current_password: PASSWORD, password: "a new passphrase" },
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ token_type: "Bearer" });
      const limited = await untilLimited(
        (headers) =>
          api.call("POST", "/api/auth/password", {
            token: changed.body.token,
            headers,
            body: { current_password: "wrong", password: "another passphrase" },
          }),
        [403],
      );
      expect(codeOf(limited)).toBe("rate_limited");
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("POST /api/auth/email and /api/auth/email/confirm", () => {
  /** The token of the confirmation link mailed to `to`. */
  async function linkTokenTo(to: string): Promise<string> {
    await server.deliverMail();
    return linkIn(mailer.last(to)!.text, "/email_changes").token;
  }

  it(
    "mails a link (202) whose token changes the address (200); refuses as documented",
    async () => {
      const api = await newApi();
      const user = await signedUp();
      const newEmail = uniqueEmail();
      const requested = await api.call("POST", "/api/auth/email", {
        token: user.token,
        body: { email: newEmail, current_password: PASSWORD },
      });
      expect(requested.status).toBe(202);
      const token = await linkTokenTo(newEmail);
      const confirmed = await api.call("POST", "/api/auth/email/confirm", { body: { token } });
      expect([confirmed.status, confirmed.body.id, confirmed.body.email]).toEqual([
        200,
        user.id,
        newEmail,
      ]);
      const again = await api.call("POST", "/api/auth/email/confirm", { body: { token } });
      expect([again.status, again.body.error.fields]).toEqual([422, { token: ["is invalid"] }]);

      // The address taken by another account between the request and the link's use.
      const wanted = uniqueEmail();
      const raced = await api.call("POST", "/api/auth/email", {
        token: user.token,
        body: { email: wanted, current_password: PASSWORD },
      });
      expect(raced.status).toBe(202);
      const racedToken = await linkTokenTo(wanted);
      await raw("POST", "/api/auth/signup", { json: { email: wanted, password: PASSWORD } });
      const taken = await api.call("POST", "/api/auth/email/confirm", {
        body: { token: racedToken },
      });
      expect([taken.status, Object.keys(taken.body.error.fields)]).toEqual([422, ["email"]]);

      const takenNow = await api.call("POST", "/api/auth/email", {
        token: user.token,
        body: { email: wanted, current_password: PASSWORD },
      });
      expect([takenNow.status, Object.keys(takenNow.body.error.fields)]).toEqual([422, ["email"]]);
      for (const [token, body, code] of [
        [user.token, { email: uniqueEmail(), current_password: "wrong" }, "invalid_credentials"],
        [
          await apiKeyOf(user.token),
          { email: uniqueEmail(), current_password: PASSWORD },
          "api_key_not_allowed",
        ],
      ] as const) {
        const refused = await api.call("POST", "/api/auth/email", { token, body });
        expect([refused.status, codeOf(refused)]).toEqual([403, code]);
      }
      const unreadable = await api.call("POST", "/api/auth/email", {
        token: user.token,
        body: { current_password: PASSWORD },
        invalidBody: true,
      });
      expect(unreadable.status).toBe(400);
      const anonymous = await api.call("POST", "/api/auth/email", {
        body: { email: uniqueEmail(), current_password: PASSWORD },
      });
      expect(anonymous.status).toBe(401);
      const noToken = await api.call("POST", "/api/auth/email/confirm", {
        body: {},
        invalidBody: true,
      });
      expect(noToken.status).toBe(400);
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );

  it(
    "answers 429 past each route's limit",
    async () => {
      const api = await newApi();
      const user = await signedUp();
      const requests = await untilLimited(
        (headers) =>
          api.call("POST", "/api/auth/email", {
            token: user.token,
            headers,
            body: { email: "not an address", current_password: PASSWORD },
          }),
        [422],
      );
      expect(codeOf(requests)).toBe("rate_limited");
      const confirmations = await untilLimited(
        (headers) =>
          api.call("POST", "/api/auth/email/confirm", { headers, body: { token: "unknown" } }),
        [422],
      );
      expect(codeOf(confirmations)).toBe("rate_limited");
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("POST /api/auth/email_code and /api/auth/token/email_code", () => {
  /** Asks for a code for `email` and reads it from the mail. */
  async function mailedCode(api: DocumentedApi, email: string): Promise<string> {
    const requested = await api.call("POST", "/api/auth/email_code", {
      body: { email },
      headers: fromElsewhere(),
    });
    expect(requested.status).toBe(202);
    await server.deliverMail();
    return /^(\d{6})$/m.exec(mailer.last(email)!.text)![1]!;
  }

  it(
    "mails a code (202 for any address) that signs in once; refuses as documented",
    async () => {
      const api = await newApi();
      const { email } = await signedUp();
      const unknown = await api.call("POST", "/api/auth/email_code", {
        body: { email: uniqueEmail() },
      });
      expect(unknown.status).toBe(202);
      const code = await mailedCode(api, email);
      const granted = await api.call("POST", "/api/auth/token/email_code", {
        body: { email, code, refresh: true },
      });
      expect(granted.status).toBe(200);
      expect(granted.body.refresh_token).toEqual(expect.any(String));
      const used = await api.call("POST", "/api/auth/token/email_code", { body: { email, code } });
      expect([used.status, codeOf(used)]).toEqual([401, "invalid_credentials"]);
      const nobody = await api.call("POST", "/api/auth/token/email_code", {
        body: { email: uniqueEmail(), code },
      });
      expect(nobody.status).toBe(401);
      for (const [path, body] of [
        ["/api/auth/email_code", {}],
        ["/api/auth/token/email_code", { email }],
      ] as const) {
        const unreadable = await api.call("POST", path, { body, invalidBody: true });
        expect([unreadable.status, codeOf(unreadable)]).toEqual([400, "bad_request"]);
      }

      const withTotp = await signedUp();
      await turnOnTotp(withTotp.token);
      const due = await api.call("POST", "/api/auth/token/email_code", {
        body: { email: withTotp.email, code: await mailedCode(api, withTotp.email) },
      });
      expect([due.status, codeOf(due)]).toEqual([403, "mfa_required"]);
      const banned = await signedUp();
      const bannedCode = await mailedCode(api, banned.email);
      await ban(banned.id);
      const refused = await api.call("POST", "/api/auth/token/email_code", {
        body: { email: banned.email, code: bannedCode },
      });
      expect([refused.status, codeOf(refused)]).toEqual([403, "account_banned"]);
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );

  it(
    "answers 429 past each route's limit",
    async () => {
      const api = await newApi();
      const requests = await untilLimited(
        (headers) =>
          api.call("POST", "/api/auth/email_code", { headers, body: { email: uniqueEmail() } }),
        [202],
      );
      expect(codeOf(requests)).toBe("rate_limited");
      const signIns = await untilLimited(
        (headers) =>
          api.call("POST", "/api/auth/token/email_code", {
            headers,
            body: { email: uniqueEmail(), code: "000000" },
          }),
        [401],
      );
      expect(codeOf(signIns)).toBe("rate_limited");
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("POST and DELETE /api/auth/token/refresh", () => {
  it(
    "rotates a refresh token (200), revokes its family (204), refuses with 400 and 401",
    async () => {
      const api = await newApi();
      const { email } = await signedUp();
      const signIn = await raw("POST", "/api/auth/token", {
        json: { email, password: PASSWORD, refresh: true },
      });
      const rotated = await api.call("POST", "/api/auth/token/refresh", {
        body: { refresh_token: signIn.body.refresh_token },
      });
      expect(rotated.status).toBe(200);
      expect(rotated.body.refresh_token).not.toBe(signIn.body.refresh_token);
      const unknown = await api.call("POST", "/api/auth/token/refresh", {
        body: { refresh_token: "not-a-refresh-token" },
      });
      expect([unknown.status, codeOf(unknown)]).toEqual([401, "invalid_credentials"]);
      for (const method of ["POST", "DELETE"]) {
        const unreadable = await api.call(method, "/api/auth/token/refresh", {
          body: { refresh_token: 7 },
          invalidBody: true,
        });
        expect([unreadable.status, codeOf(unreadable)]).toEqual([400, "bad_request"]);
      }
      const revoked = await api.call("DELETE", "/api/auth/token/refresh", {
        body: { refresh_token: rotated.body.refresh_token },
      });
      expect([revoked.status, revoked.body]).toEqual([204, undefined]);
      const gone = await api.call("POST", "/api/auth/token/refresh", {
        body: { refresh_token: rotated.body.refresh_token },
      });
      expect(gone.status).toBe(401);
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("the routes a captcha protects, in an app with one", () => {
  const SECRET = "0x4AAAAAAA-test-secret";
  let double: SiteverifyDouble;
  let guarded: TestServer;

  beforeAll(async () => {
    double = await startSiteverifyDouble(SECRET);
    guarded = await startTestServer(
      {
        TRUST_PROXY: "1",
        CAPTCHA_PROVIDER: "turnstile",
        CAPTCHA_SITE_KEY: "0x4AAAAAAA-site-key",
        CAPTCHA_SECRET: SECRET,
        CAPTCHA_VERIFY_URL: double.url,
        OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      },
      { mailer: new MemoryMailer() },
    );
  });
  afterAll(async () => {
    await guarded?.stop();
    await double?.close();
  });

  it(
    "answer 400 captcha_failed without an accepted token, and as before with one",
    async () => {
      const api = await documentedApi(guarded.url, {
        headers: { "x-forwarded-for": newClientAddress() },
      });
      const email = uniqueEmail();
      const routes = [
        ["/api/auth/signup", { email, password: PASSWORD }, 201],
        ["/api/auth/token", { email, password: PASSWORD }, 200],
        ["/api/auth/email_code", { email }, 202],
      ] as const;
      for (const [path, body, status] of routes) {
        for (const token of [{}, { captcha_token: "forged-token" }]) {
          const refused = await api.call("POST", path, { body: { ...body, ...token } });
          expect([refused.status, codeOf(refused)], path).toEqual([400, "captcha_failed"]);
        }
        const accepted = await api.call("POST", path, {
          body: { ...body, captcha_token: GOOD_TOKEN },
        });
        expect(accepted.status, path).toBe(status);
      }
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});

describe("the mail routes in a deployment without mail delivery", () => {
  let production: TestServer;
  beforeAll(async () => {
    production = await startTestServer({
      NODE_ENV: "production",
      TRUST_PROXY: "1",
      APP_URL: "https://app.example",
      ALLOWED_HOSTS: "127.0.0.1",
    });
  });
  afterAll(() => production?.stop());

  it(
    "answer 500 naming the missing setting",
    async () => {
      const api = await documentedApi(production.url, {
        headers: { "x-forwarded-for": newClientAddress() },
      });
      const email = uniqueEmail();
      const created = await api.call("POST", "/api/auth/signup", {
        body: { email, password: PASSWORD },
      });
      expect(created.status).toBe(201);
      const signedIn = await api.call("POST", "/api/auth/token", {
        body: { email, password: PASSWORD },
      });
      const answers = [
        await api.call("POST", "/api/auth/email_code", { body: { email } }),
        await api.call("POST", "/api/auth/email", {
          token: signedIn.body.token,
          body: { email: uniqueEmail(), current_password: PASSWORD },
        }),
      ];
      for (const answer of answers) {
        expect(answer.body).toEqual({
          error: { code: "internal_error", message: noMailerMessage("MAIL_ADAPTER"), status: 500 },
        });
      }
      expect(api.problems).toEqual([]);
    },
    SLOW,
  );
});
