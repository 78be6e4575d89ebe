import { createHmac, randomUUID } from "node:crypto";
import { expect } from "vitest";

/** Sends one request to the app under test: over HTTP, or straight into a fetch handler. */
export type SendRequest = (request: Request) => Promise<Response>;

const ORIGIN = "http://app.test";

/**
 * A {@link SendRequest} that forwards to a server listening at `baseUrl`, never following
 * redirects. The checks' own origin becomes the server's (fetch sends its own `Host`), so a
 * same-origin form stays same-origin; any other `Origin` is sent as it is.
 */
export function overHttp(baseUrl: string): SendRequest {
  return (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete("host");
    if (headers.get("origin") === ORIGIN) headers.set("origin", new URL(baseUrl).origin);
    return fetch(new URL(url.pathname + url.search, baseUrl), {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
      // Needed by undici to send a streamed body.
      ...(request.body ? { duplex: "half" } : {}),
    } as RequestInit);
  };
}

function json(path: string, method: string, body?: unknown, token?: string): Request {
  const headers = new Headers({ "content-type": "application/json" });
  if (token) headers.set("authorization", `Bearer ${token}`);
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((value) => /_session=/.test(value));
  expect(cookie, "a session cookie").toBeDefined();
  return cookie!.split(";")[0]!;
}

/**
 * The JSON account API: sign up, get a token, read and delete the user. Each framework example
 * and the Next.js handler must pass the same checks.
 */
export async function checkJsonAccounts(send: SendRequest): Promise<void> {
  const email = `ada-${randomUUID()}@example.com`;
  const password = "correct horse battery staple";
  const signup = await send(json("/api/auth/signup", "POST", { email, password }));
  expect(signup.status).toBe(201);
  expect(await signup.json()).toMatchObject({ email });

  const wrong = await send(json("/api/auth/token", "POST", { email, password: "wrong password" }));
  expect(wrong.status).toBe(401);
  const issued = await send(json("/api/auth/token", "POST", { email, password }));
  expect(issued.status).toBe(200);
  const { token, token_type } = (await issued.json()) as { token: string; token_type: string };
  expect(token_type).toBe("Bearer");

  const me = await send(json("/api/auth/me", "GET", undefined, token));
  expect(me.status).toBe(200);
  const user = (await me.json()) as Record<string, unknown>;
  expect(user.email).toBe(email);
  expect(JSON.stringify(user)).not.toMatch(/pbkdf2|password/);

  const anonymous = await send(json("/api/auth/me", "GET"));
  expect(anonymous.status).toBe(401);
  expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");

  const deleted = await send(json("/api/auth/me", "DELETE", { password }, token));
  expect(deleted.status).toBe(204);
  expect((await send(json("/api/auth/me", "GET", undefined, token))).status).toBe(401);
}

/**
 * The HTML sign-up, login and logout with the cookie session, and login CSRF refused: a
 * cross-site `POST /login` signs nobody in.
 */
export async function checkHtmlSignIn(send: SendRequest): Promise<void> {
  const email = `bob-${randomUUID()}@example.com`;
  const password = "correct horse battery staple";
  const sameOrigin = { origin: ORIGIN, host: "app.test" };

  const signupForm = await send(new Request(`${ORIGIN}/signup`));
  expect(signupForm.status).toBe(200);
  expect(await signupForm.text()).toMatch(/<form[^>]*action="\/signup"/);

  const signup = await send(form("/signup", { email, password }, sameOrigin));
  expect(signup.status).toBe(303);
  sessionCookie(signup);

  const forged = await send(
    form("/login", { email, password }, { origin: "https://evil.example", host: "app.test" }),
  );
  expect(forged.status).toBe(403);
  expect(forged.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await forged.text()).toContain("ALLOWED_ORIGINS");
  expect(forged.headers.getSetCookie()).toEqual([]);
  const fetchedCrossSite = await send(
    form("/login", { email, password }, { "sec-fetch-site": "cross-site" }),
  );
  expect(fetchedCrossSite.status).toBe(403);
  expect(fetchedCrossSite.headers.getSetCookie()).toEqual([]);

  const failed = await send(form("/login", { email, password: "wrong password" }, sameOrigin));
  expect(failed.status).toBe(422);
  expect(await failed.text()).toContain("Invalid email or password.");

  const login = await send(form("/login", { email, password }, sameOrigin));
  expect(login.status).toBe(303);
  const cookie = sessionCookie(login);
  const account = await send(new Request(`${ORIGIN}/account`, { headers: { cookie } }));
  expect(account.status).toBe(200);
  expect(await account.text()).toContain(email);

  const logout = await send(form("/logout", {}, { ...sameOrigin, cookie }));
  expect(logout.status).toBe(303);
  expect(logout.headers.get("location")).toBe("/");
  const after = await send(
    new Request(`${ORIGIN}/account`, { headers: { cookie: sessionCookie(logout) } }),
  );
  expect(after.status).toBe(303);
  expect(after.headers.get("location")).toBe("/login");
}

function githubDelivery(secret: string, id: string, body: string, signature?: string): Request {
  const digest = createHmac("sha256", secret).update(body).digest("hex");
  return new Request(`${ORIGIN}/webhooks/github`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-delivery": id,
      "x-github-event": "push",
      "x-hub-signature-256": signature ?? `sha256=${digest}`,
    },
    body,
  });
}

/**
 * `POST /webhooks/github` with its event log: a signed delivery is processed once, its replay
 * is a duplicate, a bad signature is a 401, and the raw bytes (spacing and unicode as sent)
 * are what the signature covers.
 */
export async function checkGithubWebhook(send: SendRequest, secret: string): Promise<void> {
  const id = randomUUID();
  // Spacing and non-ASCII text a re-serializing body parser would change.
  const body = `{ "zen": "Keep it logically awesome \u2014 caf\u00e9",  "hook_id": 1 }`;
  const first = await send(githubDelivery(secret, id, body));
  expect(first.status).toBe(200);
  expect(await first.json()).toMatchObject({ status: "processed" });
  const replay = await send(githubDelivery(secret, id, body));
  expect(replay.status).toBe(200);
  expect(await replay.json()).toMatchObject({ status: "duplicate" });
  const forged = await send(githubDelivery(secret, randomUUID(), body, `sha256=${"0".repeat(64)}`));
  expect(forged.status).toBe(401);
}

/**
 * The HTML pages carry their security headers whatever framework serves them: a
 * Content-Security-Policy with a fresh nonce and no inline scripts, no framing, the page
 * headers, and no `X-Powered-By` naming the framework.
 */
export async function checkPageHeaders(send: SendRequest): Promise<void> {
  const nonces = new Set<string>();
  for (const path of ["/signup", "/login", "/magic_link", "/passwords/new"]) {
    const page = await send(new Request(`${ORIGIN}${path}`));
    expect([path, page.status]).toEqual([path, 200]);
    const policy = page.headers.get("content-security-policy") ?? "";
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]{43})'/.exec(policy)?.[1];
    expect(nonce, `${path}: a script nonce in ${policy}`).toBeDefined();
    nonces.add(nonce!);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe-inline");
    expect(Object.fromEntries(page.headers)).toMatchObject({
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "cross-origin-opener-policy": "same-origin",
      "permissions-policy": expect.stringContaining("camera=()"),
    });
    expect(page.headers.get("x-powered-by")).toBeNull();
  }
  expect(nonces.size).toBe(4);
}

/**
 * A body far over a route's cap is answered, not reset: the JSON sign-up's 400 envelope and the
 * login form's 413 page reach the client over a real socket, and the server serves on after.
 */
export async function checkOversizedBodies(baseUrl: string): Promise<void> {
  const farOver = new Uint8Array(3 * 1024 * 1024).fill(0x20);
  const signup = await fetch(new URL("/api/auth/signup", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: farOver,
  });
  expect(signup.status).toBe(400);
  expect(await signup.json()).toEqual({
    error: {
      code: "bad_request",
      message:
        "Failed to deserialize the JSON body into the target type: the body is larger than 1048576 bytes",
      status: 400,
    },
  });
  const login = await fetch(new URL("/login", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: farOver,
  });
  expect(login.status).toBe(413);
  expect(login.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await login.text()).toContain("The form is larger than 1 MB.");
  expect((await fetch(new URL("/login", baseUrl))).status).toBe(200);
}
