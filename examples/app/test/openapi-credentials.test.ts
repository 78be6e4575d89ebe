// The credential routes of the app (TOTP and backup codes, a sign-in's second step, passkeys,
// API keys, devices) over real HTTP, every request and answer checked against the OpenAPI
// document the app serves: the success answers and the documented refusals, with their codes.
import { totpCode } from "@tessera/accounts";
import { MemoryMailer } from "@tessera/mail";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SoftwareAuthenticator } from "../../../packages/accounts/test/software-authenticator.js";
import { Browser, linkIn } from "./support/browser.js";
import { type DocumentedApi, documentedApi } from "./support/documented-api.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";
import { decodeTotpKey } from "./support/totp-key.js";

const ORIGIN = "https://app.example";
const PASSWORD = "correct horse battery";
const OPERATOR = `operator.${Date.now()}@example.com`;
const mailer = new MemoryMailer();
let server: TestServer;
let operatorToken: string;

beforeAll(async () => {
  server = await startTestServer(
    { TRUST_PROXY: "1", APP_URL: ORIGIN, ADMIN_EMAILS: OPERATOR },
    { mailer },
  );
  // An operator: a confirmed ADMIN_EMAILS address, to ban and to act as users.
  const browser = new Browser(server.url);
  expect((await browser.post("/signup", { email: OPERATOR, password: PASSWORD })).status).toBe(303);
  await server.deliverMail();
  const confirmation = linkIn(mailer.last(OPERATOR)!.text, "/confirmations");
  expect((await browser.post(confirmation.path)).status).toBe(303);
  operatorToken = (await signIn(OPERATOR)).body.token;
});
afterAll(() => server.stop());

/** A call outside the routes under test (sign-up, sign-in, admin), from a client of its own. */
async function setUp(method: string, path: string, options: { token?: string; json?: unknown }) {
  const headers: Record<string, string> = { "x-forwarded-for": newClientAddress() };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const answer = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.json === undefined ? null : JSON.stringify(options.json),
  });
  const text = await answer.text();
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as JSON.parse's
  return { status: answer.status, body: (text ? JSON.parse(text) : undefined) as any };
}

const signIn = (email: string, extra: Record<string, unknown> = {}) =>
  setUp("POST", "/api/auth/token", { json: { email, password: PASSWORD, ...extra } });

/** A new user and a token of their sign-in with the password. */
async function newUser() {
  const email = `credentials.${crypto.randomUUID()}@example.com`;
  const created = await setUp("POST", "/api/auth/signup", { json: { email, password: PASSWORD } });
  expect(created.status).toBe(201);
  const token = (await signIn(email)).body.token as string;
  return { email, id: created.body.id as number, token };
}

/**
 * The documented API, each call from a client address of its own unless `client` pins one (a
 * test of the per-client rate limit).
 */
async function testApi() {
  const api = await documentedApi(server.url);
  type Options = Parameters<DocumentedApi["call"]>[2] & { client?: string };
  const call = (method: string, path: string, options: Options = {}) =>
    api.call(method, path, {
      ...options,
      headers: { "x-forwarded-for": options.client ?? newClientAddress(), ...options.headers },
    });
  return { call, problems: api.problems };
}
type Api = Awaited<ReturnType<typeof testApi>>;

/** TOTP turned on through the documented routes: the key, and the ten backup codes. */
async function turnOnTotp(api: Api, token: string) {
  const setup = await api.call("POST", "/api/auth/mfa/totp", {
    token,
    body: { password: PASSWORD },
  });
  expect(setup.status).toBe(201);
  const key = decodeTotpKey(setup.body.secret);
  // The previous step's code (still accepted), so the current one is left for a sign-in.
  const confirmed = await api.call("POST", "/api/auth/mfa/totp/confirm", {
    token,
    body: { code: totpCode(key, Date.now() - 30_000) },
  });
  expect(confirmed.status).toBe(200);
  return { key, backupCodes: confirmed.body.backup_codes as string[] };
}

/** The `mfa_token` of a password sign-in of a user with a second factor, and its methods. */
async function mfaChallenge(email: string) {
  const refused = await signIn(email);
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe("mfa_required");
  return refused.body as { mfa_token: string; methods: string[] };
}

/** A passkey of the user, added through the documented routes with a full sign-in's token. */
async function addPasskey(api: Api, token: string) {
  const authenticator = await SoftwareAuthenticator.create(ORIGIN);
  const options = await api.call("POST", "/api/auth/passkeys/options", { token });
  expect(options.status).toBe(200);
  const response = await authenticator.register(options.body.challenge);
  const added = await api.call("POST", "/api/auth/passkeys", {
    token,
    body: { name: " Laptop ", response },
  });
  expect(added.status).toBe(201);
  return { authenticator, id: added.body.id as number, response };
}

const banned = (id: number) =>
  setUp("POST", `/api/admin/users/${id}/ban`, { token: operatorToken, json: { reason: "spam" } });
const actingAs = async (id: number) =>
  (await setUp("POST", `/api/admin/users/${id}/impersonate`, { token: operatorToken })).body
    .token as string;

const codeOf = (answer: { body: { error: { code: string } } }) => answer.body.error.code;

describe("TOTP and backup codes", () => {
  it("turn on, answer a sign-in, renew and turn off as documented", async () => {
    const api = await testApi();
    const { email, token } = await newUser();
    const totp = "/api/auth/mfa/totp";
    expect((await api.call("POST", totp, { body: { password: PASSWORD } })).status).toBe(401);
    const wrong = await api.call("POST", totp, { token, body: { password: "wrong password" } });
    expect([wrong.status, codeOf(wrong)]).toEqual([401, "invalid_credentials"]);
    const unread = await api.call("POST", totp, { token, body: {}, invalidBody: true });
    expect([unread.status, codeOf(unread)]).toEqual([400, "bad_request"]);
    const none = await api.call("POST", "/api/auth/mfa/backup_codes", {
      token,
      body: { password: PASSWORD },
    });
    expect([none.status, codeOf(none)]).toEqual([409, "totp_not_enabled"]);
    const notPending = await api.call("POST", `${totp}/confirm`, {
      token,
      body: { code: "123456" },
    });
    expect([notPending.status, codeOf(notPending)]).toEqual([409, "totp_not_pending"]);

    const setup = await api.call("POST", totp, { token, body: { password: PASSWORD } });
    expect(setup.status).toBe(201);
    const notACode = await api.call("POST", `${totp}/confirm`, { token, body: { code: "abc" } });
    expect([notACode.status, notACode.body.error.fields]).toEqual([422, { code: ["is invalid"] }]);
    const key = decodeTotpKey(setup.body.secret);
    const confirmed = await api.call("POST", `${totp}/confirm`, {
      token,
      body: { code: totpCode(key, Date.now() - 30_000) },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.backup_codes).toHaveLength(10);

    // The password-only token is no full sign-in any more; an API key never changes factors.
    const stale = await api.call("POST", "/api/auth/mfa/backup_codes", {
      token,
      body: { password: PASSWORD },
    });
    expect([stale.status, codeOf(stale)]).toEqual([403, "reauthentication_required"]);
    const { mfa_token } = await mfaChallenge(email);
    const answered = await api.call("POST", "/api/auth/token/mfa", {
      body: { mfa_token, code: confirmed.body.backup_codes[0] },
    });
    expect(answered.status).toBe(200);
    const full = answered.body.token as string;
    const apiKey = await api.call("POST", "/api/auth/keys", { token: full, body: { name: "ci" } });
    expect(apiKey.status).toBe(201);
    const byKey = await api.call("POST", totp, {
      token: apiKey.body.key,
      body: { password: PASSWORD },
    });
    expect([byKey.status, codeOf(byKey)]).toEqual([403, "api_key_not_allowed"]);
    const again = await api.call("POST", totp, { token: full, body: { password: PASSWORD } });
    expect([again.status, codeOf(again)]).toEqual([409, "totp_already_enabled"]);
    const renewed = await api.call("POST", "/api/auth/mfa/backup_codes", {
      token: full,
      body: { password: PASSWORD },
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.backup_codes).not.toContain(confirmed.body.backup_codes[1]);
    const off = await api.call("DELETE", totp, { token: full, body: { password: PASSWORD } });
    expect(off.status).toBe(204);
    expect((await signIn(email)).status).toBe(200);
    expect(api.problems).toEqual([]);
  });

  it("answer the 11th call of a minute from one client with 429", async () => {
    const api = await testApi();
    const { token } = await newUser();
    await awaitWindowRoom(10_000);
    const client = newClientAddress();
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt++) {
      const answer = await api.call("POST", "/api/auth/mfa/totp/confirm", {
        client,
        token,
        body: { code: "123456" },
      });
      statuses.push(answer.status);
      if (attempt === 11) expect(codeOf(answer)).toBe("rate_limited");
    }
    expect(statuses).toEqual([...Array(10).fill(409), 429]);
    expect(api.problems).toEqual([]);
  });
});

describe("the second step of a sign-in", () => {
  it("takes a code or a passkey for the mfa_token, and refuses as documented", async () => {
    const api = await testApi();
    const { email, id, token } = await newUser();
    const { key, backupCodes } = await turnOnTotp(api, token);
    const first = await mfaChallenge(email);
    expect(first.methods).toEqual(["totp", "backup_code"]);
    const step = "/api/auth/token/mfa";
    const unread = await api.call("POST", step, { body: { code: "1" }, invalidBody: true });
    expect([unread.status, codeOf(unread)]).toEqual([400, "bad_request"]);
    const unknown = await api.call("POST", step, { body: { mfa_token: "nope", code: "123456" } });
    expect([unknown.status, codeOf(unknown)]).toEqual([401, "invalid_credentials"]);
    const noPasskey = await api.call("POST", `${step}/options`, {
      body: { mfa_token: first.mfa_token },
    });
    expect([noPasskey.status, codeOf(noPasskey)]).toEqual([409, "no_passkey"]);
    const signedIn = await api.call("POST", step, {
      body: { mfa_token: first.mfa_token, code: totpCode(key, Date.now()), refresh: true },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ token_type: "Bearer" });
    expect(typeof signedIn.body.refresh_token).toBe("string");
    const used = await api.call("POST", `${step}/options`, {
      body: { mfa_token: first.mfa_token },
    });
    expect([used.status, codeOf(used)]).toEqual([401, "invalid_credentials"]);
    const optionsUnread = await api.call("POST", `${step}/options`, {
      body: {},
      invalidBody: true,
    });
    expect(optionsUnread.status).toBe(400);

    // With a passkey: its options for the mfa_token, and its answer.
    const { authenticator } = await addPasskey(api, signedIn.body.token);
    const second = await mfaChallenge(email);
    expect(second.methods).toEqual(["totp", "backup_code", "passkey"]);
    const options = await api.call("POST", `${step}/options`, {
      body: { mfa_token: second.mfa_token },
    });
    expect(options.status).toBe(200);
    expect(options.body.allowCredentials).toHaveLength(1);
    const passkey = await authenticator.authenticate(options.body.challenge);
    const byPasskey = await api.call("POST", step, {
      body: { mfa_token: second.mfa_token, passkey },
    });
    expect(byPasskey.status).toBe(200);

    // Banned while the second step waited.
    const third = await mfaChallenge(email);
    expect((await banned(id)).status).toBe(200);
    const refused = await api.call("POST", step, {
      body: { mfa_token: third.mfa_token, code: backupCodes[0] },
    });
    expect([refused.status, codeOf(refused)]).toEqual([403, "account_banned"]);
    expect(api.problems).toEqual([]);
  });

  it("makes an account wait after ten wrong answers from any address (429)", async () => {
    const api = await testApi();
    const { email, token } = await newUser();
    const { backupCodes } = await turnOnTotp(api, token);
    // Ten wrong codes over two mfa_tokens (each void after five), each from its own address.
    for (const { mfa_token } of [await mfaChallenge(email), await mfaChallenge(email)]) {
      for (let wrong = 0; wrong < 5; wrong++) {
        const answer = await api.call("POST", "/api/auth/token/mfa", {
          body: { mfa_token, code: "00000-00000" },
        });
        expect(answer.status).toBe(401);
      }
    }
    const { mfa_token } = await mfaChallenge(email);
    const waits = await api.call("POST", "/api/auth/token/mfa", {
      body: { mfa_token, code: backupCodes[0] },
    });
    expect([waits.status, codeOf(waits)]).toEqual([429, "account_throttled"]);
    expect(Number(waits.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(api.problems).toEqual([]);
  });

  it("answers the 11th call of a minute from one client with 429 rate_limited", async () => {
    const api = await testApi();
    await awaitWindowRoom(10_000);
    const client = newClientAddress();
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt++) {
      const answer = await api.call("POST", "/api/auth/token/mfa/options", {
        client,
        body: { mfa_token: "void" },
      });
      statuses.push(answer.status);
      if (attempt === 11) expect(codeOf(answer)).toBe("rate_limited");
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    expect(api.problems).toEqual([]);
  });
});

describe("passkeys", () => {
  it("are added, listed, used to sign in and removed as documented", async () => {
    const api = await testApi();
    const { token } = await newUser();
    expect((await api.call("GET", "/api/auth/passkeys")).status).toBe(401);
    expect((await api.call("GET", "/api/auth/passkeys", { token })).body).toEqual([]);
    const { authenticator, id, response } = await addPasskey(api, token);
    const listed = await api.call("GET", "/api/auth/passkeys", { token });
    expect(listed.body).toMatchObject([{ id, name: "Laptop", last_used_at: null }]);
    const blank = await api.call("POST", "/api/auth/passkeys", {
      token,
      body: { name: "  ", response },
    });
    expect([blank.status, blank.body.error.fields]).toEqual([422, { name: ["can't be blank"] }]);
    const missing = await api.call("POST", "/api/auth/passkeys", {
      token,
      body: { name: "Phone" },
      invalidBody: true,
    });
    expect([missing.status, codeOf(missing)]).toEqual([400, "bad_request"]);
    // Its challenge was used up: the same answer again does not verify.
    const replayed = await api.call("POST", "/api/auth/passkeys", { token, body: { response } });
    expect([replayed.status, codeOf(replayed)]).toEqual([400, "passkey_invalid"]);

    const offered = await api.call("POST", "/api/auth/passkeys/login/options");
    expect(offered.status).toBe(200);
    const { challenge_id } = offered.body;
    const login = "/api/auth/passkeys/login";
    const signedIn = await api.call("POST", login, {
      body: { challenge_id, response: await authenticator.authenticate(challenge_id) },
    });
    expect(signedIn.status).toBe(200);
    const again = await api.call("POST", login, {
      body: { challenge_id, response: await authenticator.authenticate(challenge_id) },
    });
    expect([again.status, codeOf(again)]).toEqual([401, "invalid_credentials"]);
    const unread = await api.call("POST", login, { body: {}, invalidBody: true });
    expect([unread.status, codeOf(unread)]).toEqual([400, "bad_request"]);

    expect((await api.call("DELETE", "/api/auth/passkeys/999999", { token })).status).toBe(404);
    expect((await api.call("DELETE", `/api/auth/passkeys/${id}`, { token })).status).toBe(204);
    expect((await api.call("GET", "/api/auth/passkeys", { token })).body).toEqual([]);
    expect(api.problems).toEqual([]);
  });

  it("need a full, recent sign-in to change, never an API key; a touch alone is one factor", async () => {
    const api = await testApi();
    const { email, id, token } = await newUser();
    const key = await api.call("POST", "/api/auth/keys", { token, body: { name: "ci" } });
    const byKey = await api.call("POST", "/api/auth/passkeys/options", { token: key.body.key });
    expect([byKey.status, codeOf(byKey)]).toEqual([403, "api_key_not_allowed"]);
    expect((await api.call("GET", "/api/auth/passkeys", { token: key.body.key })).status).toBe(200);
    const { backupCodes } = await turnOnTotp(api, token);
    const stale = await api.call("POST", "/api/auth/passkeys/options", { token });
    expect([stale.status, codeOf(stale)]).toEqual([403, "reauthentication_required"]);
    const removal = await api.call("DELETE", "/api/auth/passkeys/1", { token });
    expect([removal.status, codeOf(removal)]).toEqual([403, "reauthentication_required"]);

    const { mfa_token } = await mfaChallenge(email);
    const full = await api.call("POST", "/api/auth/token/mfa", {
      body: { mfa_token, code: backupCodes[0] },
    });
    const { authenticator } = await addPasskey(api, full.body.token);
    const offered = await api.call("POST", "/api/auth/passkeys/login/options");
    const { challenge_id } = offered.body;
    const touched = await api.call("POST", "/api/auth/passkeys/login", {
      body: {
        challenge_id,
        response: await authenticator.authenticate(challenge_id, { userVerified: false }),
      },
    });
    expect([touched.status, codeOf(touched)]).toEqual([403, "mfa_required"]);
    expect(touched.body.methods).toEqual(["totp", "backup_code"]);

    expect((await banned(id)).status).toBe(200);
    const next = (await api.call("POST", "/api/auth/passkeys/login/options")).body.challenge_id;
    const refused = await api.call("POST", "/api/auth/passkeys/login", {
      body: { challenge_id: next, response: await authenticator.authenticate(next) },
    });
    expect([refused.status, codeOf(refused)]).toEqual([403, "account_banned"]);
    expect(api.problems).toEqual([]);
  });

  it("answer the 11th call of a minute from one client with 429", async () => {
    const api = await testApi();
    const { token } = await newUser();
    await awaitWindowRoom(10_000);
    const client = newClientAddress();
    const signedIn: number[] = [];
    const anyone: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt++) {
      signedIn.push((await api.call("GET", "/api/auth/passkeys", { client, token })).status);
      anyone.push((await api.call("POST", "/api/auth/passkeys/login/options", { client })).status);
    }
    expect(signedIn).toEqual([...Array(10).fill(200), 429]);
    expect(anyone).toEqual([...Array(10).fill(200), 429]);
    expect(api.problems).toEqual([]);
  });
});

describe("API keys", () => {
  it("are made, listed and deleted as documented", async () => {
    const api = await testApi();
    const { token } = await newUser();
    expect((await api.call("GET", "/api/auth/keys")).status).toBe(401);
    const made = await api.call("POST", "/api/auth/keys", { token, body: { name: " deploy " } });
    expect(made.status).toBe(201);
    expect(made.body.api_key).toMatchObject({ name: "deploy", last_used_at: null });
    const listed = await api.call("GET", "/api/auth/keys", { token: made.body.key });
    expect(listed.body.map((key: { id: number }) => key.id)).toEqual([made.body.api_key.id]);
    expect(listed.body[0].last_used_at).not.toBeNull();
    const unread = await api.call("POST", "/api/auth/keys", { token, body: {}, invalidBody: true });
    expect([unread.status, codeOf(unread)]).toEqual([400, "bad_request"]);
    const blank = await api.call("POST", "/api/auth/keys", { token, body: { name: " " } });
    expect([blank.status, blank.body.error.fields]).toEqual([422, { name: ["can't be blank"] }]);
    const byKey = await api.call("POST", "/api/auth/keys", {
      token: made.body.key,
      body: { name: "another" },
    });
    expect([byKey.status, codeOf(byKey)]).toEqual([403, "api_key_not_allowed"]);
    expect((await api.call("DELETE", "/api/auth/keys/999999", { token })).status).toBe(404);
    const deleted = await api.call("DELETE", `/api/auth/keys/${made.body.api_key.id}`, {
      token: made.body.key,
    });
    expect(deleted.status).toBe(204);
    expect((await api.call("GET", "/api/auth/keys", { token: made.body.key })).status).toBe(401);
    expect(api.problems).toEqual([]);
  });

  it("need a full sign-in of a user with a second factor to be made", async () => {
    const api = await testApi();
    const { token } = await newUser();
    await turnOnTotp(api, token);
    const stale = await api.call("POST", "/api/auth/keys", { token, body: { name: "ci" } });
    expect([stale.status, codeOf(stale)]).toEqual([403, "reauthentication_required"]);
    expect(api.problems).toEqual([]);
  });
});

describe("devices", () => {
  it("list browsers and apps, and end them, as documented", async () => {
    const api = await testApi();
    const { email, token } = await newUser();
    const browser = new Browser(server.url);
    expect((await browser.post("/login", { email, password: PASSWORD })).status).toBe(303);
    const app = await signIn(email, { refresh: true });
    expect(app.status).toBe(200);
    expect((await api.call("GET", "/api/auth/sessions")).status).toBe(401);
    const listed = await api.call("GET", "/api/auth/sessions", { token });
    expect(listed.status).toBe(200);
    const kinds = listed.body.map((device: { kind: string }) => device.kind);
    expect(kinds).toEqual(["browser", "app"]);
    const [browserDevice, appDevice] = listed.body as { id: string }[];

    const key = await api.call("POST", "/api/auth/keys", { token, body: { name: "ci" } });
    expect((await api.call("GET", "/api/auth/sessions", { token: key.body.key })).status).toBe(200);
    const byKey = await api.call("DELETE", `/api/auth/sessions/${appDevice!.id}`, {
      token: key.body.key,
    });
    expect([byKey.status, codeOf(byKey)]).toEqual([403, "api_key_not_allowed"]);
    const other = await newUser();
    const notTheirs = await api.call("DELETE", `/api/auth/sessions/${appDevice!.id}`, {
      token: other.token,
    });
    expect(notTheirs.status).toBe(404);
    expect((await api.call("DELETE", "/api/auth/sessions/phone-1", { token })).status).toBe(404);
    for (const device of [appDevice!, browserDevice!]) {
      expect((await api.call("DELETE", `/api/auth/sessions/${device.id}`, { token })).status).toBe(
        204,
      );
    }
    expect((await api.call("GET", "/api/auth/sessions", { token })).body).toEqual([]);
    expect(api.problems).toEqual([]);
  });
});

describe("an operator acting as a user", () => {
  it("changes no credential, factor or device: 403 impersonation_not_allowed", async () => {
    const api = await testApi();
    const { id } = await newUser();
    const token = await actingAs(id);
    const refusals = [
      await api.call("POST", "/api/auth/mfa/totp", { token, body: { password: PASSWORD } }),
      await api.call("DELETE", "/api/auth/mfa/totp", { token, body: { password: PASSWORD } }),
      await api.call("POST", "/api/auth/mfa/backup_codes", {
        token,
        body: { password: PASSWORD },
      }),
      await api.call("POST", "/api/auth/passkeys/options", { token }),
      await api.call("DELETE", "/api/auth/passkeys/1", { token }),
      await api.call("POST", "/api/auth/keys", { token, body: { name: "ci" } }),
      await api.call("DELETE", "/api/auth/keys/1", { token }),
      await api.call("DELETE", "/api/auth/sessions/app-1", { token }),
    ];
    for (const refused of refusals) {
      expect([refused.status, codeOf(refused)]).toEqual([403, "impersonation_not_allowed"]);
    }
    expect((await api.call("GET", "/api/auth/keys", { token })).status).toBe(200);
    expect(api.problems).toEqual([]);
  });
});
