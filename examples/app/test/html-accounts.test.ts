import { request as httpRequest } from "node:http";
import { noMailerMessage } from "@tessera/accounts";
import { MemoryMailer } from "@tessera/mail";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, linkIn, pageText } from "./support/browser.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let now = Date.UTC(2026, 10, 22, 9, 0, 0);
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(
    { TRUST_PROXY: "1", APP_URL: "https://app.example" },
    { mailer, clock: () => now },
  );
});
afterAll(() => server.stop());

let counter = 0;
const uniqueEmail = () => `html${++counter}.${Date.now()}@example.com`;
const PASSWORD = "correct horse battery";

/** The last mail to `email`, once the outbox handed it over, failing when there is none. */
async function lastMailTo(email: string) {
  await server.deliverMail();
  const mail = mailer.last(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail;
}

async function signUp(browser = new Browser(server.url), email = uniqueEmail()) {
  const response = await browser.post("/signup", { email, password: PASSWORD });
  expect(response.status).toBe(303);
  return { browser, email, response };
}

async function userRow(email: string) {
  const [row] = await server.query<{
    id: number;
    confirmed_at: string | null;
    password_digest: string;
  }>("SELECT id, confirmed_at, password_digest FROM users WHERE email = ?", email);
  return row;
}

describe("sign-up", () => {
  it("shows an accessible form", async () => {
    const page = await new Browser(server.url).get("/signup");
    expect(page.status).toBe(200);
    expect(page.html).toContain('<label for="field-email">Email</label>');
    expect(page.html).toContain('autocomplete="email"');
    expect(page.html).toContain('autocomplete="new-password"');
  });

  it("re-renders with every message at once (422), keeping what was typed", async () => {
    const page = await new Browser(server.url).post("/signup", {
      email: "not-an-email",
      password: "short",
    });
    expect(page.status).toBe(422);
    const text = pageText(page.html);
    expect(text).toContain("2 errors stopped this form");
    expect(text).toContain("Email is invalid");
    expect(text).toContain("Password is too short (minimum is 8 characters)");
    expect(page.html).toContain('value="not-an-email"');
    expect(page.html).not.toContain('value="short"');
  });

  it("creates the user, signs in with a browser-session cookie, flashes the welcome, and mails a confirmation link", async () => {
    const { browser, email, response } = await signUp();
    expect(response.location).toBe("/account");
    const cookie = response.headers
      .getSetCookie()
      .find((header) => header.startsWith("_tessera_session="));
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/Max-Age|Expires/);
    expect(cookie).not.toMatch(/Secure/);

    const account = await browser.follow(response);
    expect(account.status).toBe(200);
    const text = pageText(account.html);
    expect(text).toContain(
      "Welcome! Your account is ready. Check your email to confirm your address.",
    );
    expect(text).toContain(email);
    expect(text).toContain("Member since 2026-11-22 09:00:00 UTC");
    expect(text).toContain("Please confirm your email address");
    expect(account.html).toContain('role="status"');

    const mail = await lastMailTo(email);
    expect(mail.subject).toBe("Confirm your email address");
    expect(linkIn(mail.text, "/confirmations").url).toMatch(
      /^https:\/\/app\.example\/confirmations\//,
    );
    // Flashes are shown once.
    expect(pageText((await browser.get("/account")).html)).not.toContain("Welcome!");
  });

  it("refuses a taken email, whatever its case", async () => {
    const { email } = await signUp();
    const page = await new Browser(server.url).post("/signup", {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(page.status).toBe(422);
    expect(pageText(page.html)).toContain("Email has already been taken");
  });
});

describe("login and logout", () => {
  it("answers 422 with the same message for an unknown email and a wrong password", async () => {
    const { email } = await signUp();
    for (const form of [
      { email, password: "wrong password" },
      { email: uniqueEmail(), password: PASSWORD },
    ]) {
      const page = await new Browser(server.url).post("/login", form);
      expect(page.status).toBe(422);
      expect(pageText(page.html)).toContain("Invalid email or password.");
      expect(page.headers.getSetCookie()).toEqual([]);
    }
  });

  it("signs in, returns to the remembered page, and logs out", async () => {
    const { email } = await signUp();
    const browser = new Browser(server.url);
    const refused = await browser.get("/account?tab=profile");
    expect(refused.status).toBe(303);
    expect(refused.location).toBe("/login");
    expect(pageText((await browser.follow(refused)).html)).toContain("Please log in to continue.");

    const signedIn = await browser.post("/login", { email, password: PASSWORD });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/account?tab=profile");
    expect(pageText((await browser.follow(signedIn)).html)).toContain("Signed in.");

    const out = await browser.post("/logout");
    expect(out.status).toBe(303);
    expect(out.location).toBe("/");
    expect(pageText((await browser.follow(out)).html)).toContain("Signed out.");
    expect((await browser.get("/account")).location).toBe("/login");
  });

  it("goes to / without a remembered page, and never to a page off the site", async () => {
    const { email } = await signUp();
    const browser = new Browser(server.url);
    expect((await browser.post("/login", { email, password: PASSWORD })).location).toBe("/");
    const other = new Browser(server.url);
    await other.get("//evil.example/account");
    expect((await other.post("/login", { email, password: PASSWORD })).location).toBe("/");
  });

  it("keeps the cookie for two weeks with remember me", async () => {
    const { email } = await signUp();
    const response = await new Browser(server.url).post("/login", {
      email,
      password: PASSWORD,
      remember_me: "1",
    });
    const cookie = response.headers
      .getSetCookie()
      .find((header) => header.startsWith("_tessera_session="));
    expect(cookie).toMatch(/; Max-Age=1209600/);
  });

  it("ends the sign-in after 1209600 seconds", async () => {
    const { browser } = await signUp();
    const start = now;
    try {
      now = start + 1_209_599_000;
      expect((await browser.get("/account")).status).toBe(200);
      now = start + 1_209_600_000;
      expect((await browser.get("/account")).location).toBe("/login");
    } finally {
      now = start;
    }
  });

  it("treats a tampered or foreign cookie as no session, never an error", async () => {
    const { browser } = await signUp();
    const value = browser.sessionCookie!;
    // One character changed in the middle, where every bit of it counts (the last character of
    // base64url may carry bits a decoder ignores, so changing it is not always a change).
    const middle = Math.floor(value.length / 2);
    const flipped = `${value.slice(0, middle)}${value[middle] === "A" ? "B" : "A"}${value.slice(middle + 1)}`;
    for (const forged of [flipped, value.slice(0, 20), "garbage", "A".repeat(5000)]) {
      browser.cookies.set("_tessera_session", forged);
      const page = await browser.get("/account");
      expect(page.status).toBe(303);
      expect(page.location).toBe("/login");
    }
  });

  it("refuses a cross-site form post", async () => {
    const page = await new Browser(server.url).request(
      "POST",
      "/login",
      "email=a%40b.co&password=x",
      {
        "sec-fetch-site": "cross-site",
        origin: "https://evil.example",
      },
    );
    expect(page.status).toBe(403);
    expect(page.html).toContain("ALLOWED_ORIGINS");
  });
});

describe("magic links", () => {
  it("answers the same whether or not the account exists, and mails only existing accounts", async () => {
    const { email } = await signUp();
    await server.deliverMail();
    const before = mailer.sent.length;
    const known = await new Browser(server.url).post("/magic_link", { email: email.toUpperCase() });
    const unknown = await new Browser(server.url).post("/magic_link", { email: uniqueEmail() });
    for (const response of [known, unknown]) {
      expect(response.status).toBe(303);
      expect(response.location).toBe("/login");
    }
    const browser = new Browser(server.url);
    await browser.request("POST", "/magic_link", "email=nobody%40example.com");
    expect(pageText((await browser.get("/login")).html)).toContain(
      "If an account exists for that email, a sign-in link is on its way.",
    );
    await server.deliverMail();
    expect(mailer.sent.length).toBe(before + 1);
    const mail = await lastMailTo(email);
    expect(mail.subject).toBe("Your sign-in link");
    expect(mail.html).toContain("/magic_link/");
  });

  it("shows a button on GET without using the token, signs in on POST once", async () => {
    const { email } = await signUp();
    await new Browser(server.url).post("/magic_link", { email });
    const link = linkIn((await lastMailTo(email)).text, "/magic_link");
    const browser = new Browser(server.url);
    const page = await browser.get(link.path);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.html).toContain(`action="${link.path}"`);
    expect((await browser.get(link.path)).status).toBe(200);

    const used = await browser.post(link.path);
    expect(used.status).toBe(303);
    expect(used.location).toBe("/");
    expect(pageText((await browser.follow(used)).html)).toContain("Signed in.");
    expect((await userRow(email))?.confirmed_at).not.toBeNull();

    const again = await new Browser(server.url).post(link.path);
    expect(again.location).toBe("/magic_link");
    expect(pageText((await new Browser(server.url).get("/magic_link")).html)).not.toContain(
      "invalid",
    );
  });

  it("refuses a used, expired, superseded or made-up link with the documented alert", async () => {
    const { email } = await signUp();
    const request = () => new Browser(server.url).post("/magic_link", { email });
    await request();
    const first = linkIn((await lastMailTo(email)).text, "/magic_link");
    await request();
    const second = linkIn((await lastMailTo(email)).text, "/magic_link");
    const start = now;
    const refusedWith = async (path: string) => {
      const browser = new Browser(server.url);
      const response = await browser.post(path);
      expect(response.location).toBe("/magic_link");
      return pageText((await browser.follow(response)).html);
    };
    try {
      expect(await refusedWith(first.path)).toContain(
        "That sign-in link is invalid or has expired.",
      );
      expect(await refusedWith(`/magic_link/${"x".repeat(43)}`)).toContain(
        "invalid or has expired",
      );
      now = start + 15 * 60 * 1000;
      expect(await refusedWith(second.path)).toContain(
        "That sign-in link is invalid or has expired.",
      );
    } finally {
      now = start;
    }
  });

  it("lets exactly one of two simultaneous uses of one link sign in", async () => {
    const { email } = await signUp();
    await new Browser(server.url).post("/magic_link", { email });
    const link = linkIn((await lastMailTo(email)).text, "/magic_link");
    const results = await Promise.all([
      new Browser(server.url).post(link.path),
      new Browser(server.url).post(link.path),
    ]);
    expect(results.map((result) => result.location).sort()).toEqual(["/", "/magic_link"]);
  });

  it("never mails a link to a forged Host", async () => {
    const { email } = await signUp();
    const { port } = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/magic_link",
          headers: {
            host: "evil.example",
            "content-type": "application/x-www-form-urlencoded",
            "x-forwarded-for": "192.0.2.77",
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end(new URLSearchParams({ email }).toString());
    });
    expect(status).toBe(303);
    const link = linkIn((await lastMailTo(email)).text, "/magic_link");
    expect(link.url.startsWith("https://app.example/magic_link/")).toBe(true);
    expect((await lastMailTo(email)).text).not.toContain("evil.example");
  });
});

describe("password reset", () => {
  async function resetLink(email: string) {
    await new Browser(server.url).post("/passwords", { email });
    const mail = await lastMailTo(email);
    expect(mail.subject).toBe("Reset your password");
    return linkIn(mail.text, "/passwords");
  }

  it("answers the same whether or not the account exists", async () => {
    await server.deliverMail();
    const before = mailer.sent.length;
    const response = await new Browser(server.url).post("/passwords", { email: uniqueEmail() });
    expect(response.status).toBe(303);
    expect(response.location).toBe("/login");
    await server.deliverMail();
    expect(mailer.sent.length).toBe(before);
  });

  it("keeps the token through a mismatch or a short password, then changes the password and confirms the email", async () => {
    const { email } = await signUp();
    const link = await resetLink(email);
    const browser = new Browser(server.url);
    const form = await browser.get(link.path);
    expect(form.status).toBe(200);
    expect(form.headers.get("referrer-policy")).toBe("no-referrer");
    expect(form.html).toContain('autocomplete="new-password"');

    const mismatch = await browser.post(link.path, {
      password: "a new passphrase",
      password_confirmation: "something else",
    });
    expect(mismatch.status).toBe(422);
    expect(pageText(mismatch.html)).toContain("Password confirmation doesn't match Password");
    const short = await browser.post(link.path, {
      password: "short",
      password_confirmation: "short",
    });
    expect(short.status).toBe(422);
    expect(pageText(short.html)).toContain("Password is too short (minimum is 8 characters)");

    const done = await browser.post(link.path, {
      password: "a new passphrase",
      password_confirmation: "a new passphrase",
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/login");
    expect((await userRow(email))?.confirmed_at).not.toBeNull();
    expect(
      (await new Browser(server.url).post("/login", { email, password: PASSWORD })).status,
    ).toBe(422);
    expect(
      (await new Browser(server.url).post("/login", { email, password: "a new passphrase" }))
        .status,
    ).toBe(303);

    const reused = await new Browser(server.url).get(link.path);
    expect(reused.location).toBe("/passwords/new");
    const again = await new Browser(server.url).post(link.path, {
      password: "third passphrase",
      password_confirmation: "third passphrase",
    });
    expect(again.location).toBe("/passwords/new");
  });

  it("sends an invalid or expired link back to /passwords/new with an alert", async () => {
    const { email } = await signUp();
    const link = await resetLink(email);
    const start = now;
    try {
      now = start + 15 * 60 * 1000;
      const browser = new Browser(server.url);
      const page = await browser.get(link.path);
      expect(page.location).toBe("/passwords/new");
      expect(pageText((await browser.follow(page)).html)).toContain(
        "That password reset link is invalid or has expired.",
      );
    } finally {
      now = start;
    }
  });
});

describe("email confirmation", () => {
  it("confirms with the link from the sign-up mail, once", async () => {
    const { browser, email } = await signUp();
    const link = linkIn((await lastMailTo(email)).text, "/confirmations");
    const page = await browser.get(link.path);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect((await userRow(email))?.confirmed_at).toBeNull();

    const confirmed = await browser.post(link.path);
    expect(confirmed.location).toBe("/account");
    const account = pageText((await browser.follow(confirmed)).html);
    expect(account).toContain("Thanks, your email address is confirmed.");
    expect(account).not.toContain("Please confirm your email address");
    expect((await userRow(email))?.confirmed_at).toBe("2026-11-22 09:00:00");

    const again = await browser.post(link.path);
    expect(again.location).toBe("/");
    expect(pageText((await browser.follow(again)).html)).toContain(
      "That confirmation link is invalid or has expired.",
    );
  });

  it("is valid for 24 hours", async () => {
    const { browser, email } = await signUp();
    const link = linkIn((await lastMailTo(email)).text, "/confirmations");
    const start = now;
    try {
      now = start + 24 * 3600 * 1000;
      expect((await browser.post(link.path)).location).toBe("/");
      expect((await userRow(email))?.confirmed_at).toBeNull();
    } finally {
      now = start;
    }
  });

  it("sends a new link on request, which cancels the previous one", async () => {
    const { browser, email } = await signUp();
    const first = linkIn((await lastMailTo(email)).text, "/confirmations");
    const resent = await browser.post("/confirmations");
    expect(resent.location).toBe("/account");
    expect(pageText((await browser.follow(resent)).html)).toContain(
      "A new confirmation link is on its way.",
    );
    const second = linkIn((await lastMailTo(email)).text, "/confirmations");
    expect(second.token).not.toBe(first.token);
    expect((await browser.post(first.path)).location).toBe("/");
    expect((await browser.post(second.path)).location).toBe("/account");
  });
});

describe("account deletion", () => {
  it("refuses a wrong password with 422, then deletes the user and signs out", async () => {
    const { browser, email } = await signUp();
    const wrong = await browser.post("/account/delete", { password: "not my password" });
    expect(wrong.status).toBe(422);
    expect(pageText(wrong.html)).toContain("The password is incorrect.");
    expect(await userRow(email)).toBeDefined();

    const deleted = await browser.post("/account/delete", { password: PASSWORD });
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe("/");
    expect(pageText((await browser.follow(deleted)).html)).toContain(
      "Your account has been deleted.",
    );
    expect(await userRow(email)).toBeUndefined();
    expect(
      await server.query("SELECT id FROM auth_tokens WHERE user_id NOT IN (SELECT id FROM users)"),
    ).toEqual([]);
    expect((await browser.get("/account")).location).toBe("/login");
  });
});

describe("sign-in codes by mail (JSON)", () => {
  it("mails a code through the outbox, which then grants a bearer token once", async () => {
    const email = uniqueEmail();
    const client = newClientAddress();
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": client },
        body: JSON.stringify(body),
      });
    expect(
      (await post("/api/auth/signup", { email, password: "correct horse battery" })).status,
    ).toBe(201);
    const before = mailer.sent.length;
    expect((await post("/api/auth/email_code", { email })).status).toBe(202);
    await server.deliverMail();
    const mail = mailer.sent.slice(before).find((sent) => sent.to === email);
    expect(mail?.subject).toBe("Your sign-in code");
    const code = /^(\d{6})$/m.exec(mail!.text)?.[1];
    const granted = await post("/api/auth/token/email_code", { email, code });
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect((await post("/api/auth/token/email_code", { email, code })).status).toBe(401);
  });
});

describe("rate limits", () => {
  it("answers the 11th login attempt in a minute from one client with 429 and Retry-After", async () => {
    await awaitWindowRoom(8_000);
    const browser = new Browser(server.url);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(
        (await browser.post("/login", { email: "x@example.com", password: "nope nope" })).status,
      ).toBe(422);
    }
    const limited = await browser.post("/login", { email: "x@example.com", password: "nope nope" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(pageText(limited.html)).toContain("Too many requests. Try again later.");
  });

  it("limits sign-in link requests per target email, across clients", async () => {
    await awaitWindowRoom(5_000);
    const email = uniqueEmail();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await new Browser(server.url).post("/magic_link", { email })).status).toBe(303);
    }
    expect((await new Browser(server.url).post("/magic_link", { email })).status).toBe(429);
  });
});

describe("without a mailer in production", () => {
  it("answers 500 to the sign-in link and password reset requests, in plain text saying why", async () => {
    const production = await startTestServer({
      NODE_ENV: "production",
      TRUST_PROXY: "1",
      APP_URL: "https://app.example",
      ALLOWED_HOSTS: "127.0.0.1",
    });
    try {
      for (const path of ["/magic_link", "/passwords"]) {
        const response = await new Browser(production.url).post(path, {
          email: "someone@example.com",
        });
        expect(response.status).toBe(500);
        expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
        expect(response.html).toBe(noMailerMessage("MAIL_ADAPTER"));
      }
    } finally {
      await production.stop();
    }
  });
});
