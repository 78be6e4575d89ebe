// The captcha in the app, over real HTTP against a siteverify double on 127.0.0.1 (reached
// through the app's guarded fetch, allowed by OUTBOUND_ALLOW_HOSTS): every protected JSON route
// and form refuses a missing, refused or unverifiable token with 400 `captcha_failed` and
// answers as before with an accepted one; other routes, and an app without the settings, are
// unchanged; the forms render the widget, and their page's policy lets its script run.
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ERROR_STATUS_TOKEN,
  GOOD_TOKEN,
  type SiteverifyDouble,
  startSiteverifyDouble,
} from "../../../test/support/siteverify-double.js";
import { Browser, pageText } from "./support/browser.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const SECRET = "0x4AAAAAAA-test-secret";
const SITE_KEY = "0x4AAAAAAA-site-key";
const PASSWORD = "correct horse battery";
const REFUSAL = "The captcha was not solved; try again.";
const TURNSTILE_SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js";

let double: SiteverifyDouble;
let server: TestServer;
let plain: TestServer;

const captchaSettings = (provider: string) => ({
  TRUST_PROXY: "1",
  CAPTCHA_PROVIDER: provider,
  CAPTCHA_SITE_KEY: SITE_KEY,
  CAPTCHA_SECRET: SECRET,
  CAPTCHA_VERIFY_URL: double.url,
  OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
});

beforeAll(async () => {
  double = await startSiteverifyDouble(SECRET);
  server = await startTestServer(captchaSettings("turnstile"));
  plain = await startTestServer({ TRUST_PROXY: "1" });
});
afterAll(async () => {
  await Promise.all([server?.stop(), plain?.stop()]);
  await double?.close();
});

let counter = 0;
const uniqueEmail = () => `captcha${++counter}.${Date.now()}@example.com`;

/** A JSON POST from a client address of its own: status, `error.code` and the body. */
async function postJson(
  app: TestServer,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const client = newClientAddress();
  const response = await fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": client, ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown> & {
    error?: { code: string; message: string };
  };
  return {
    status: response.status,
    code: json.error?.code,
    message: json.error?.message,
    json,
    client,
  };
}

/** A user signed up over JSON with an accepted token. */
async function signedUpEmail(): Promise<string> {
  const email = uniqueEmail();
  const answer = await postJson(server, "/api/auth/signup", {
    email,
    password: PASSWORD,
    captcha_token: GOOD_TOKEN,
  });
  expect(answer.status).toBe(201);
  return email;
}

describe("JSON routes with a captcha", () => {
  const routes = [
    {
      path: "/api/auth/signup",
      body: () => ({ email: uniqueEmail(), password: PASSWORD }),
      ok: 201,
    },
    {
      path: "/api/auth/token",
      body: async () => ({ email: await signedUpEmail(), password: PASSWORD }),
      ok: 200,
    },
    { path: "/api/auth/email_code", body: async () => ({ email: await signedUpEmail() }), ok: 202 },
  ];

  for (const route of routes) {
    it(`POST ${route.path}: 400 captcha_failed without a token, with a refused one and an unverifiable one`, async () => {
      for (const token of [undefined, "", 42, "forged-token", ERROR_STATUS_TOKEN]) {
        const body = {
          ...(await route.body()),
          ...(token === undefined ? {} : { captcha_token: token }),
        };
        const answer = await postJson(server, route.path, body);
        expect([answer.status, answer.code, answer.message], String(token)).toEqual([
          400,
          "captcha_failed",
          REFUSAL,
        ]);
      }
    });

    it(`POST ${route.path}: answers as before with an accepted token, verified with the client's address`, async () => {
      const before = double.received.length;
      const answer = await postJson(server, route.path, {
        ...(await route.body()),
        captcha_token: GOOD_TOKEN,
      });
      expect(answer.status).toBe(route.ok);
      const verification = double.received.at(-1);
      expect(double.received.length).toBeGreaterThan(before);
      expect(verification?.form).toEqual({
        secret: SECRET,
        response: GOOD_TOKEN,
        remoteip: answer.client,
      });
      expect(verification?.contentType).toBe("application/x-www-form-urlencoded");
    });
  }

  it("gives the token a sign-in answers, and refuses in the request's language", async () => {
    const email = await signedUpEmail();
    const token = await postJson(server, "/api/auth/token", {
      email,
      password: PASSWORD,
      captcha_token: GOOD_TOKEN,
    });
    expect(typeof token.json.token).toBe("string");
    const french = await postJson(
      server,
      "/api/auth/token",
      { email, password: PASSWORD },
      { "accept-language": "fr" },
    );
    expect([french.status, french.code, french.message]).toEqual([
      400,
      "captcha_failed",
      "Le captcha n'a pas été résolu ; réessayez.",
    ]);
  });

  it("answers a body the reader refuses with its own 400, asking the provider nothing", async () => {
    const before = double.received.length;
    const response = await fetch(`${server.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": newClientAddress() },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^Failed to deserialize the JSON body/);
    expect(double.received.length).toBe(before);
  });

  it("asks the provider about at most ten tokens a minute from one client, refusing the rest", async () => {
    // All fourteen in one minute's window: a window starting among them would allow ten more.
    await awaitWindowRoom(10_000);
    const client = newClientAddress();
    const before = double.received.length;
    const codes: (string | undefined)[] = [];
    for (let attempt = 0; attempt < 14; attempt += 1) {
      const answer = await postJson(
        server,
        "/api/auth/email_code",
        { email: uniqueEmail(), captcha_token: `junk-${attempt}` },
        { "x-forwarded-for": client },
      );
      codes.push(answer.code);
    }
    expect(codes.every((code) => code === "captcha_failed")).toBe(true);
    expect(double.received.length - before).toBe(10);
  });

  it("leaves the routes it does not protect alone", async () => {
    const email = await signedUpEmail();
    const signIn = await postJson(server, "/api/auth/token", {
      email,
      password: PASSWORD,
      captcha_token: GOOD_TOKEN,
    });
    const me = await fetch(`${server.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${signIn.json.token as string}` },
    });
    expect(me.status).toBe(200);
    const code = await postJson(server, "/api/auth/token/email_code", { email, code: "000000" });
    expect([code.status, code.code]).toEqual([401, "invalid_credentials"]);
  });
});

/** The page's CSP nonce, from its header. */
function nonceOf(policy: string | null): string | undefined {
  return policy?.match(/'nonce-([^']+)'/)?.[1];
}

/** A browser signed up through the form with an accepted token (unconfirmed, so `/account` offers a new link). */
async function signedInBrowser(): Promise<Browser> {
  const browser = new Browser(server.url);
  const answer = await browser.post("/signup", {
    email: uniqueEmail(),
    password: PASSWORD,
    "cf-turnstile-response": GOOD_TOKEN,
  });
  expect(answer.status).toBe(303);
  return browser;
}

describe("forms with a captcha", () => {
  const forms = [
    {
      page: "/signup",
      action: "/signup",
      fields: () => ({ email: uniqueEmail(), password: PASSWORD }),
      signedIn: false,
    },
    {
      page: "/login",
      action: "/login",
      fields: () => ({ email: uniqueEmail(), password: PASSWORD }),
      signedIn: false,
    },
    {
      page: "/magic_link",
      action: "/magic_link",
      fields: () => ({ email: uniqueEmail() }),
      signedIn: false,
    },
    {
      page: "/passwords/new",
      action: "/passwords",
      fields: () => ({ email: uniqueEmail() }),
      signedIn: false,
    },
    { page: "/account", action: "/confirmations", fields: () => ({}), signedIn: true },
  ];

  for (const form of forms) {
    it(`${form.page} shows the widget inside the form posting to ${form.action}, its script allowed by the page's policy`, async () => {
      const browser = form.signedIn ? await signedInBrowser() : new Browser(server.url);
      const page = await browser.get(form.page);
      expect(page.status).toBe(200);
      const policy = page.headers.get("content-security-policy");
      const nonce = nonceOf(policy);
      expect(nonce).toBeDefined();
      const formHtml = page.html.match(
        new RegExp(`<form method="post" action="${form.action}"[^>]*>([\\s\\S]*?)</form>`),
      )?.[1];
      expect(formHtml).toContain(`<div class="cf-turnstile" data-sitekey="${SITE_KEY}"></div>`);
      expect(formHtml).toContain(
        `<script src="${TURNSTILE_SCRIPT}" async defer nonce="${nonce}"></script>`,
      );
      expect(policy).toMatch(/script-src [^;]*https:\/\/challenges\.cloudflare\.com/);
      expect(policy).toMatch(/frame-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    });

    it(`POST ${form.action}: a 400 page without a token and with a refused one, the usual answer with an accepted one`, async () => {
      const browser = form.signedIn ? await signedInBrowser() : new Browser(server.url);
      for (const token of [undefined, "forged-token"]) {
        const refused = await browser.post(form.action, {
          ...form.fields(),
          ...(token === undefined ? {} : { "cf-turnstile-response": token }),
        });
        expect(refused.status, String(token)).toBe(400);
        expect(pageText(refused.html)).toContain(REFUSAL);
        expect(refused.html).toContain(`href="${form.page}"`);
        expect(nonceOf(refused.headers.get("content-security-policy"))).toBeDefined();
      }
      const accepted = await browser.post(form.action, {
        ...form.fields(),
        "cf-turnstile-response": GOOD_TOKEN,
      });
      // Login of an unknown address is its usual 422; every other form redirects.
      expect(accepted.status).toBe(form.action === "/login" ? 422 : 303);
    });
  }

  it("signs in through /login with an accepted token", async () => {
    const email = uniqueEmail();
    const browser = new Browser(server.url);
    const tokens = { "cf-turnstile-response": GOOD_TOKEN };
    expect((await browser.post("/signup", { email, password: PASSWORD, ...tokens })).status).toBe(
      303,
    );
    const other = new Browser(server.url);
    const login = await other.post("/login", { email, password: PASSWORD, ...tokens });
    expect([login.status, login.location]).toEqual([303, "/"]);
  });

  it("refuses a cross-site post before asking the provider: a forged form costs no verification", async () => {
    const before = double.received.length;
    const forged = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
        "x-forwarded-for": newClientAddress(),
      },
      body: new URLSearchParams({
        email: uniqueEmail(),
        password: PASSWORD,
        "cf-turnstile-response": GOOD_TOKEN,
      }),
      redirect: "manual",
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("content-security-policy")).not.toBeNull();
    expect(double.received.length).toBe(before);
  });

  it("leaves the forms it does not protect alone", async () => {
    const browser = await signedInBrowser();
    const logout = await browser.post("/logout");
    expect([logout.status, logout.location]).toEqual([303, "/"]);
  });
});

describe("hCaptcha", () => {
  it("renders its widget and script, and takes its form field", async () => {
    const app = await startTestServer(captchaSettings("hcaptcha"));
    try {
      const browser = new Browser(app.url);
      const page = await browser.get("/signup");
      const nonce = nonceOf(page.headers.get("content-security-policy"));
      expect(page.html).toContain(`<div class="h-captcha" data-sitekey="${SITE_KEY}"></div>`);
      expect(page.html).toContain(
        `<script src="https://js.hcaptcha.com/1/api.js" async defer nonce="${nonce}"></script>`,
      );
      expect(page.headers.get("content-security-policy")).toMatch(
        /frame-src [^;]*https:\/\/\*\.hcaptcha\.com/,
      );
      const fields = { email: uniqueEmail(), password: PASSWORD };
      const turnstileField = await browser.post("/signup", {
        ...fields,
        "cf-turnstile-response": GOOD_TOKEN,
      });
      expect(turnstileField.status).toBe(400);
      const accepted = await browser.post("/signup", {
        ...fields,
        "h-captcha-response": GOOD_TOKEN,
      });
      expect(accepted.status).toBe(303);
      expect(double.received.at(-1)?.form.sitekey).toBe(SITE_KEY);
    } finally {
      await app.stop();
    }
  });
});

describe("without the captcha settings", () => {
  it("shows no widget, allows no provider and asks for no token", async () => {
    const before = double.received.length;
    const browser = new Browser(plain.url);
    const page = await browser.get("/signup");
    expect(page.html).not.toContain("cf-turnstile");
    expect(page.html).not.toContain("h-captcha");
    expect(page.headers.get("content-security-policy")).not.toContain("challenges.cloudflare.com");
    const form = await browser.post("/signup", { email: uniqueEmail(), password: PASSWORD });
    expect(form.status).toBe(303);
    const json = await postJson(plain, "/api/auth/signup", {
      email: uniqueEmail(),
      password: PASSWORD,
    });
    expect(json.status).toBe(201);
    expect(double.received.length).toBe(before);
  });
});
