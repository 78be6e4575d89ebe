import { totpCode } from "@tessera/accounts";
import { JWT_KEY_LABEL } from "@tessera/bearer";
import { deriveKey } from "@tessera/crypto";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";
import { decodeTotpKey } from "./support/totp-key.js";

const SECRET = "e2e-secret-".repeat(6);
const PREVIOUS_SECRET = "old-secret-".repeat(6);
let server: TestServer;

beforeAll(async () => {
  // One trusted proxy: the client address is the rightmost X-Forwarded-For entry.
  server = await startTestServer({
    SECRET_KEY_BASE: SECRET,
    SECRET_KEY_BASE_PREVIOUS: PREVIOUS_SECRET,
    TRUST_PROXY: "1",
  });
});
afterAll(() => server.stop());

interface CallOptions {
  readonly method?: string;
  readonly json?: unknown;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly token?: string;
  readonly client?: string;
}

async function call(path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = {
    "x-forwarded-for": options.client ?? newClientAddress(),
    ...options.headers,
  };
  if (options.json !== undefined) headers["content-type"] ??= "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${server.url}${path}`, {
    method:
      options.method ?? (options.json !== undefined || options.body !== undefined ? "POST" : "GET"),
    headers,
    body: options.body ?? (options.json === undefined ? null : JSON.stringify(options.json)),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

let emailCounter = 0;
function uniqueEmail(): string {
  return `user${++emailCounter}.${Date.now()}@example.com`;
}

async function signUp(email = uniqueEmail(), password = "correct horse battery") {
  const response = await call("/api/auth/signup", { json: { email, password } });
  expect(response.status).toBe(201);
  return { user: response.body as { id: number; email: string }, email, password };
}

async function tokenFor(email: string, password: string): Promise<string> {
  const response = await call("/api/auth/token", { json: { email, password } });
  expect(response.status).toBe(200);
  return response.body.token;
}

const validationEnvelope = (fields: Record<string, string[]>) => ({
  error: { code: "validation_failed", message: "Validation failed", status: 422, fields },
});
const UNAUTHORIZED = { error: { code: "unauthenticated", message: "Unauthorized", status: 401 } };
const INVALID_CREDENTIALS = {
  error: { code: "invalid_credentials", message: "Unauthorized", status: 401 },
};

describe("POST /api/auth/signup", () => {
  it("creates a user and answers 201 with its JSON form, never the digest", async () => {
    const response = await call("/api/auth/signup", {
      json: { email: "  Lin@Example.COM ", password: "a long passphrase", name: "  Lin  " },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      email: "lin@example.com",
      name: "Lin",
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: response.body.created_at,
    });
    const [row] = await server.query<{ email: string; password_digest: string; name: string }>(
      "SELECT email, password_digest, name FROM users WHERE id = ?",
      response.body.id,
    );
    expect(row?.password_digest).toMatch(
      /^pbkdf2_sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9+/]{43}=$/,
    );
    expect(row?.name).toBe("Lin");
  });

  it("reports every invalid field at once in the 422 envelope", async () => {
    const response = await call("/api/auth/signup", {
      json: { email: "nope", password: "short", name: "n".repeat(101) },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      validationEnvelope({
        email: ["is invalid"],
        password: ["is too short (minimum is 8 characters)"],
        name: ["is too long (maximum is 100 characters)"],
      }),
    );
  });

  it("refuses an email already taken, whatever its case", async () => {
    const { email } = await signUp();
    const response = await call("/api/auth/signup", {
      json: { email: email.toUpperCase(), password: "password123" },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(validationEnvelope({ email: ["has already been taken"] }));
  });

  it("gives exactly one 201 and one 422 for two simultaneous sign-ups with one email", async () => {
    const email = uniqueEmail();
    const responses = await Promise.all([
      call("/api/auth/signup", { json: { email, password: "password123" } }),
      call("/api/auth/signup", { json: { email: email.toUpperCase(), password: "password123" } }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([201, 422]);
    expect(await server.query("SELECT id FROM users WHERE email = ?", email)).toHaveLength(1);
  });

  it.each([
    [
      "a body without Content-Type",
      { body: '{"email":"a@b.co","password":"password123"}' },
      "expected `Content-Type: application/json`",
    ],
    [
      "malformed JSON",
      { body: "{nope", headers: { "content-type": "application/json" } },
      "the body is not valid JSON",
    ],
    ["an array", { json: [] }, "invalid type: array, expected an object"],
    ["a missing field", { json: { email: "a@b.co" } }, "missing field `password`"],
    [
      "a field of the wrong type",
      { json: { email: 42, password: "password123" } },
      "email: invalid type: integer 42, expected a string",
    ],
    [
      "null for a field",
      { json: { email: null, password: "password123" } },
      "email: invalid type: null, expected a string",
    ],
  ])("answers 400 with the deserialize prefix for %s", async (_, options, reason) => {
    const response = await call("/api/auth/signup", { method: "POST", ...options });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        code: "bad_request",
        message: `Failed to deserialize the JSON body into the target type: ${reason}`,
        status: 400,
      },
    });
  });
});

describe("POST /api/auth/token", () => {
  it("issues an HS256 JWT for one hour with sub, iat and exp", async () => {
    const { user, email, password } = await signUp();
    const response = await call("/api/auth/token", {
      json: { email: email.toUpperCase(), password },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token: expect.any(String),
      token_type: "Bearer",
      expires_in: 3600,
    });
    const claims = decodeJwt(response.body.token);
    expect(claims.sub).toBe(String(user.id));
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(JSON.parse(atob(response.body.token.split(".")[0]))).toMatchObject({ alg: "HS256" });
  });

  it("answers 401 Unauthorized alike for a wrong password and an unknown email", async () => {
    const { email } = await signUp();
    const wrong = await call("/api/auth/token", { json: { email, password: "wrong password" } });
    const unknown = await call("/api/auth/token", {
      json: { email: uniqueEmail(), password: "wrong password" },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(INVALID_CREDENTIALS);
    expect(unknown.body).toEqual(INVALID_CREDENTIALS);
  });

  it("answers 400 for a body of the wrong shape", async () => {
    const response = await call("/api/auth/token", { json: { email: "a@b.co" } });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(
      "Failed to deserialize the JSON body into the target type: missing field `password`",
    );
  });
});

describe("GET /api/auth/me", () => {
  it("answers the bearer's user for a JWT and for an API key", async () => {
    const { user, email, password } = await signUp();
    const jwt = await tokenFor(email, password);
    const byJwt = await call("/api/auth/me", { token: jwt });
    expect(byJwt.status).toBe(200);
    expect(byJwt.body).toMatchObject({ id: user.id, email });
    expect(byJwt.body).not.toHaveProperty("password_digest");

    const created = await call("/api/auth/keys", { token: jwt, json: { name: "ci" } });
    const byKey = await call("/api/auth/me", { token: created.body.key });
    expect(byKey.status).toBe(200);
    expect(byKey.body).toEqual(byJwt.body);
  });

  it("answers 401 with WWW-Authenticate: Bearer for missing, malformed, forged and expired credentials", async () => {
    const { user } = await signUp();
    const jwtKey = deriveKey(SECRET, JWT_KEY_LABEL);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(user.id))
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(jwtKey);
    const otherAlgorithm = await new SignJWT({})
      .setProtectedHeader({ alg: "HS512" })
      .setSubject(String(user.id))
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(deriveKey(SECRET, JWT_KEY_LABEL, 64));
    const unsigned = `${btoa('{"alg":"none","typ":"JWT"}').replace(/=+$/, "")}.${btoa(JSON.stringify({ sub: String(user.id), iat: now, exp: now + 3600 })).replace(/=+$/, "")}.`;
    const cookieKeyToken = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(user.id))
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(deriveKey(SECRET, "session cookie"));

    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer" },
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: "Bearer not-a-key" },
      { authorization: `Bearer ${expired}` },
      { authorization: `Bearer ${otherAlgorithm}` },
      { authorization: `Bearer ${unsigned}` },
      { authorization: `Bearer ${cookieKeyToken}` },
    ];
    for (const headers of attempts) {
      const response = await call("/api/auth/me", { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(response.body).toEqual(UNAUTHORIZED);
    }
  });

  it("accepts a JWT signed under SECRET_KEY_BASE_PREVIOUS", async () => {
    const { user } = await signUp();
    const now = Math.floor(Date.now() / 1000);
    const beforeRotation = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(user.id))
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(deriveKey(PREVIOUS_SECRET, JWT_KEY_LABEL));
    const response = await call("/api/auth/me", { token: beforeRotation });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(user.id);
  });
});

describe("API keys", () => {
  it("returns the secret once, stores only its digest and lists keys without secrets", async () => {
    const { user, email, password } = await signUp();
    const jwt = await tokenFor(email, password);
    const created = await call("/api/auth/keys", { token: jwt, json: { name: "  deploy  " } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      api_key: {
        id: expect.any(Number),
        user_id: user.id,
        name: "deploy",
        last_used_at: null,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    });
    const [row] = await server.query<{ digest: string }>(
      "SELECT * FROM api_keys WHERE id = ?",
      created.body.api_key.id,
    );
    expect(row?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.body.key);

    const listed = await call("/api/auth/keys", { token: jwt });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([created.body.api_key]);
  });

  it("writes last_used_at on first use", async () => {
    const { email, password } = await signUp();
    const jwt = await tokenFor(email, password);
    const created = await call("/api/auth/keys", { token: jwt, json: { name: "cli" } });
    await call("/api/auth/me", { token: created.body.key });
    const [row] = await server.query<{ last_used_at: string | null }>(
      "SELECT last_used_at FROM api_keys WHERE id = ?",
      created.body.api_key.id,
    );
    expect(row?.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("refuses a blank name with 422", async () => {
    const { email, password } = await signUp();
    const jwt = await tokenFor(email, password);
    const response = await call("/api/auth/keys", { token: jwt, json: { name: "   " } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(validationEnvelope({ name: ["can't be blank"] }));
  });

  it("refuses a missing or non-string name with the 400 of a malformed body, creating nothing", async () => {
    const { user, email, password } = await signUp();
    const jwt = await tokenFor(email, password);
    for (const [json, reason] of [
      [{}, "missing field `name`"],
      [{ name: 42 }, "name: invalid type: integer 42, expected a string"],
      [{ name: null }, "name: invalid type: null, expected a string"],
      [{ name: ["cli"] }, "name: invalid type: array, expected a string"],
    ] as const) {
      const response = await call("/api/auth/keys", { token: jwt, json });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: {
          code: "bad_request",
          message: `Failed to deserialize the JSON body into the target type: ${reason}`,
          status: 400,
        },
      });
    }
    expect(await server.query("SELECT id FROM api_keys WHERE user_id = ?", user.id)).toEqual([]);
  });

  it("revokes a key at once, and answers 404 for another user's or a missing key", async () => {
    const owner = await signUp();
    const other = await signUp();
    const ownerJwt = await tokenFor(owner.email, owner.password);
    const otherJwt = await tokenFor(other.email, other.password);
    const created = await call("/api/auth/keys", { token: ownerJwt, json: { name: "laptop" } });
    const id = created.body.api_key.id;

    const stolen = await call(`/api/auth/keys/${id}`, { method: "DELETE", token: otherJwt });
    expect(stolen.status).toBe(404);
    expect(stolen.body).toEqual({
      error: { code: "not_found", message: "Not found", status: 404 },
    });
    expect((await call("/api/auth/me", { token: created.body.key })).status).toBe(200);

    const revoked = await call(`/api/auth/keys/${id}`, { method: "DELETE", token: ownerJwt });
    expect(revoked.status).toBe(204);
    expect((await call("/api/auth/me", { token: created.body.key })).status).toBe(401);
    expect((await call(`/api/auth/keys/${id}`, { method: "DELETE", token: ownerJwt })).status).toBe(
      404,
    );
    expect((await call("/api/auth/keys/abc", { method: "DELETE", token: ownerJwt })).status).toBe(
      404,
    );
  });

  it("requires a bearer token on every key route", async () => {
    for (const [method, path] of [
      ["GET", "/api/auth/keys"],
      ["POST", "/api/auth/keys"],
      ["DELETE", "/api/auth/keys/1"],
    ] as const) {
      const response = await call(path, {
        method,
        ...(method === "POST" ? { json: { name: "x" } } : {}),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
    }
  });
});

describe("DELETE /api/auth/me", () => {
  it("answers 403 for a wrong password and keeps the account", async () => {
    const { email, password } = await signUp();
    const jwt = await tokenFor(email, password);
    const response = await call("/api/auth/me", {
      method: "DELETE",
      token: jwt,
      json: { password: "not it at all" },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      error: { code: "invalid_credentials", message: "The password is incorrect.", status: 403 },
    });
    expect(await server.query("SELECT id FROM users WHERE email = ?", email)).toHaveLength(1);
  });

  it("deletes the user and its keys; its JWT and keys then fail", async () => {
    const { user, email, password } = await signUp();
    const jwt = await tokenFor(email, password);
    const created = await call("/api/auth/keys", { token: jwt, json: { name: "k" } });
    const response = await call("/api/auth/me", {
      method: "DELETE",
      token: jwt,
      json: { password },
    });
    expect(response.status).toBe(204);
    expect(await server.query("SELECT id FROM users WHERE id = ?", user.id)).toEqual([]);
    expect(await server.query("SELECT id FROM api_keys WHERE user_id = ?", user.id)).toEqual([]);
    expect((await call("/api/auth/me", { token: jwt })).status).toBe(401);
    expect((await call("/api/auth/me", { token: created.body.key })).status).toBe(401);
  });
});

describe("rate limiting", () => {
  it("answers the 11th attempt in a minute with 429 and Retry-After, per client address", async () => {
    await awaitWindowRoom(5_000);
    const client = newClientAddress();
    // An address of its own: ten wrong passwords for one account also make it wait (per-account
    // throttling), which this test of the per-client limit must not meet.
    const email = `limited-${Date.now()}@example.com`;
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await call("/api/auth/token", {
        client,
        json: { email, password: "whatever1" },
      });
      expect(response.status).toBe(401);
    }
    const limited = await call("/api/auth/token", {
      client,
      json: { email, password: "whatever1" },
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: { code: "rate_limited", message: "Too many requests. Try again later.", status: 429 },
    });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);

    // A forged leftmost X-Forwarded-For entry does not make a new client.
    const forged = await call("/api/auth/token", {
      client: `198.51.100.77, ${client}`,
      json: { email, password: "whatever1" },
    });
    expect(forged.status).toBe(429);
    // Another client (for another account: this one now waits), and another route group, are
    // counted apart.
    expect(
      (await call("/api/auth/token", { json: { email: `other-${email}`, password: "whatever1" } }))
        .status,
    ).toBe(401);
    expect(
      (await call("/api/auth/signup", { client, json: { email: "bad", password: "x" } })).status,
    ).toBe(422);
  });
});

describe("second-factor answers to one account", () => {
  it("are judged 10 in a row, whatever the client addresses: the 11th waits (429), not judged", async () => {
    const { email, password } = await signUp();
    const token = await tokenFor(email, password);
    const setup = await call("/api/auth/mfa/totp", { token, json: { password } });
    expect(setup.status).toBe(201);
    const key = decodeTotpKey(setup.body.secret);
    const confirmed = await call("/api/auth/mfa/totp/confirm", {
      token,
      json: { code: totpCode(key, Date.now()) },
    });
    expect(confirmed.status).toBe(200);
    const backupCode: string = confirmed.body.backup_codes[0];
    const mfaToken = async () => {
      const refused = await call("/api/auth/token", { json: { email, password } });
      expect(refused.status).toBe(403);
      return refused.body.mfa_token as string;
    };
    const answer = async (mfa_token: string, code: string) =>
      call("/api/auth/token/mfa", { json: { mfa_token, code } });

    // Ten wrong codes, each call from a client address of its own, over two tokens.
    for (const challenge of [await mfaToken(), await mfaToken()]) {
      for (let wrong = 0; wrong < 5; wrong++) {
        expect((await answer(challenge, "00000-00000")).status).toBe(401);
      }
    }
    const limited = await answer(await mfaToken(), backupCode);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("account_throttled");
    expect(limited.headers.get("retry-after")).toBe("60");
    const rows = await server.query<{ count: number | string }>(
      "SELECT COUNT(*) AS count FROM user_backup_codes WHERE user_id = (SELECT id FROM users WHERE email = ?)",
      email,
    );
    // Not judged: the backup code was not used up.
    expect(Number(rows[0]!.count)).toBe(10);
  });
});

describe("the JSON account routes, /api/health and the cookie session", () => {
  it("never open a session cookie sent along: no Set-Cookie, whatever the cookie holds", async () => {
    const { email, password } = await signUp();
    const jwt = await tokenFor(email, password);
    const cookie = { cookie: "_tessera_session=not-a-sealed-session" };
    const answers = [
      await call("/api/auth/me", { token: jwt, headers: cookie }),
      await call("/api/auth/keys", { token: jwt, headers: cookie }),
      await call("/api/auth/token", { json: { email, password }, headers: cookie }),
      await call("/api/auth/me", { headers: cookie }),
      await call("/api/health", { headers: cookie }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 401, 200]);
    for (const answer of answers) expect(answer.headers.get("set-cookie")).toBeNull();
    // A page reads the same cookie, finds it invalid, and deletes it with its answer.
    const page = await fetch(`${server.url}/login`, { headers: cookie });
    expect(page.headers.get("set-cookie")).toMatch(/^_tessera_session=;/);
  });
});
