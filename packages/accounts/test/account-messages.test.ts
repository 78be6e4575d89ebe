import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import type { Locale } from "@tessera/core";
import { plainLayout, routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { browserName } from "@tessera/session";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { describe, expect, it } from "vitest";
import { CONFIRMATION_MISMATCH } from "../src/email-link/html-email-link-routes.js";
import {
  accountEmail,
  accountMessages,
  accountRoutes,
  defaultAccountPages,
  defaultSessionPages,
  otherSessionsEndedMessage,
} from "../src/index.js";
import { ACCOUNT_DELETION_REFUSED } from "../src/users/json-account-routes.js";

/** A language of a few messages: everything else falls back to English. */
const PIRATE: Locale = {
  tag: "x-pirate",
  catalog: {
    "accounts.login.title": "Come aboard",
    "accounts.field.email": "Message in a bottle",
    "accounts.field.password": "Secret <word>",
    "accounts.invalid_credentials": "Walk the plank",
    "accounts.signed_in": "Ahoy, ye be aboard.",
    "accounts.welcome": "Welcome aboard, matey!",
    "accounts.mail.confirmation_subject": "Prove yer bottle",
    "accounts.mail.confirmation_intro": "Be {email} yer bottle? Follow this map:",
    "accounts.sessions.browser": "Spyglass",
    "accounts.sessions.this_device": "This here ship",
    "session.unknown_browser": "A ship of no flag",
    "session.browser_on_system": "{browser} aboard {system}",
    "validation.blank": "be empty as a rum barrel",
    "http.validation_failed": "Yer papers be wrong",
  },
};

const layout = plainLayout;
const pageContext = (locale?: Locale) => ({
  signedInEmail: undefined,
  flashes: [],
  cspNonce: undefined,
  ...(locale ? { locale } : {}),
});

describe("accountMessages in English", () => {
  it("are the messages the routes wrote before the catalog, exactly", () => {
    expect({
      "accounts.welcome": accountMessages.english["accounts.welcome"],
      "accounts.invalid_login": accountMessages.english["accounts.invalid_login"],
      "accounts.signed_in": accountMessages.english["accounts.signed_in"],
      "accounts.signed_out": accountMessages.english["accounts.signed_out"],
      "accounts.account_deleted": accountMessages.english["accounts.account_deleted"],
      "accounts.magic_link_sent": accountMessages.english["accounts.magic_link_sent"],
      "accounts.magic_link_invalid": accountMessages.english["accounts.magic_link_invalid"],
      "accounts.password_reset_sent": accountMessages.english["accounts.password_reset_sent"],
      "accounts.password_reset_invalid": accountMessages.english["accounts.password_reset_invalid"],
      "accounts.password_changed": accountMessages.english["accounts.password_changed"],
      CONFIRMATION_MISMATCH,
      "accounts.confirmation_sent": accountMessages.english["accounts.confirmation_sent"],
      "accounts.already_confirmed": accountMessages.english["accounts.already_confirmed"],
      "accounts.confirmed": accountMessages.english["accounts.confirmed"],
      "accounts.confirmation_invalid": accountMessages.english["accounts.confirmation_invalid"],
      "accounts.session_ended": accountMessages.english["accounts.session_ended"],
      ACCOUNT_DELETION_REFUSED,
      others: otherSessionsEndedMessage(3),
      notYourEmail: accountMessages.english["accounts.not_your_email"],
      invalidCredentials: accountMessages.english["accounts.invalid_credentials"],
    }).toEqual({
      "accounts.welcome":
        "Welcome! Your account is ready. Check your email to confirm your address.",
      "accounts.invalid_login": "Invalid email or password.",
      "accounts.signed_in": "Signed in.",
      "accounts.signed_out": "Signed out.",
      "accounts.account_deleted": "Your account has been deleted.",
      "accounts.magic_link_sent":
        "If an account exists for that email, a sign-in link is on its way.",
      "accounts.magic_link_invalid": "That sign-in link is invalid or has expired.",
      "accounts.password_reset_sent":
        "If an account exists for that email, a link to reset your password is on its way.",
      "accounts.password_reset_invalid": "That password reset link is invalid or has expired.",
      "accounts.password_changed": "Your password has been changed. Log in with it now.",
      CONFIRMATION_MISMATCH: "doesn't match Password",
      "accounts.confirmation_sent": "A new confirmation link is on its way.",
      "accounts.already_confirmed": "Your email address is already confirmed.",
      "accounts.confirmed": "Thanks, your email address is confirmed.",
      "accounts.confirmation_invalid": "That confirmation link is invalid or has expired.",
      "accounts.session_ended": "That device is signed out.",
      ACCOUNT_DELETION_REFUSED: "The password is incorrect.",
      others: "Signed out of 3 other session(s).",
      notYourEmail: "That is not your email address.",
      invalidCredentials: "Unauthorized",
    });
  });

  it("write the pages as they were without a locale", () => {
    const pages = defaultAccountPages(layout);
    const login = pages.login({
      context: pageContext(),
      email: "",
      error: undefined,
      emailLinks: true,
    });
    expect(login).toContain('<html lang="en">');
    expect(login).toContain("<h1>Log in</h1>");
    expect(login).toContain("Keep me signed in for two weeks");
    expect(login).toContain(
      '<p><a href="/magic_link">Email me a sign-in link</a> · <a href="/passwords/new">Forgot your password?</a></p>',
    );
    expect(login).toContain('<p>New here? <a href="/signup">Sign up</a></p>');
    const newPassword = pages.newPassword({
      context: pageContext(),
      token: "t",
      errors: { password_confirmation: [CONFIRMATION_MISMATCH] },
      offerSignOutEverywhere: true,
    });
    expect(newPassword).toContain("<li>Password confirmation doesn&#39;t match Password</li>");
    expect(newPassword).toContain("Sign out of all other sessions");
    expect(newPassword).toContain('<button type="submit">Save the new password</button>');
  });
});

describe("the account pages in a locale", () => {
  it("write the catalog's text, escaped, and fall back to English for the rest", () => {
    const pages = defaultAccountPages(layout, {
      loginExtrasHtml: (locale) => `<p>extras in ${locale?.tag}</p>`,
    });
    const login = pages.login({
      context: pageContext(PIRATE),
      email: "",
      error: undefined,
      emailLinks: true,
    });
    expect(login).toContain('<html lang="x-pirate">');
    expect(login).toContain("<h1>Come aboard</h1>");
    expect(login).toContain('<label for="field-email">Message in a bottle</label>');
    expect(login).toContain('<label for="field-password">Secret &lt;word&gt;</label>');
    expect(login).toContain("<p>extras in x-pirate</p>");
    expect(login).toContain("Keep me signed in for two weeks");
  });

  it("start a field's messages with its name in the locale, the message translated", () => {
    const signup = defaultAccountPages(layout).signup({
      context: pageContext(PIRATE),
      email: "",
      errors: { email: ["can't be blank"] },
    });
    expect(signup).toContain("<li>Message in a bottle be empty as a rum barrel</li>");
  });

  it("write the devices page in the locale, its labels too unless a store wrote its own", () => {
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    const row = {
      userId: 1,
      ipAddress: null,
      createdAt: 0,
      lastSeenAt: 0,
      expiresAt: 0,
      factors: [],
    };
    const page = defaultSessionPages(layout).sessions({
      context: pageContext(PIRATE),
      sessions: [
        { ...row, id: 1, browser: browserName(firefox), userAgent: firefox },
        { ...row, id: 2, browser: browserName(null), userAgent: null },
        { ...row, id: 3, browser: "The office laptop", userAgent: firefox },
      ],
      currentId: 1,
    });
    expect(page).toContain('<th scope="col">Spyglass</th>');
    expect(page).toContain("<strong>This here ship</strong>");
    expect(page).toContain('<th scope="row" id="session-1">Firefox 128 aboard Linux</th>');
    expect(page).toContain('<th scope="row" id="session-2">A ship of no flag</th>');
    expect(page).toContain('<th scope="row" id="session-3">The office laptop</th>');
  });
});

describe("accountEmail in a locale", () => {
  it("writes subject and sentences in it, the address raw in text and escaped in HTML", () => {
    const to = "o'hara@example.com";
    const mail = accountEmail("email_confirmation", {
      to,
      origin: "https://app.example",
      token: "Xk3_9-abcdefghijklmnopqrstuvwxyzABCDEFGHIJK",
      locale: PIRATE,
    });
    expect(mail.subject).toBe("Prove yer bottle");
    expect(mail.text.startsWith(`Be ${to} yer bottle? Follow this map:\n`)).toBe(true);
    expect(mail.html).toContain("<p>Be o&#39;hara@example.com yer bottle? Follow this map:</p>");
  });
});

describe("the account routes in a locale", () => {
  async function mounted() {
    const database = openSqliteFile(":memory:");
    await applyMigrations(database, accountMigrations);
    const mailer = new MemoryMailer();
    const accounts = accountRoutes({
      ...sqlAccountStores(database),
      secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
      mailer,
      appUrl: "https://app.example",
      passwords: { iterations: 1000 },
    });
    const handle = routeRequests(accounts.routes);
    const send = async (request: Request) => {
      const response = await handle(request, { clientAddress: "203.0.113.7", locale: PIRATE });
      if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
      return response;
    };
    return { send, mailer };
  }
  const json = (path: string, body: unknown) =>
    new Request(`https://app.example${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const form = (path: string, body: Record<string, string>, cookie?: string) =>
    new Request(`https://app.example${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://app.example",
        host: "app.example",
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams(body),
    });

  it("answer JSON refusals in it: the 422's message and fields, the 401's message", async () => {
    const { send } = await mounted();
    const signup = await send(json("/api/auth/signup", { email: "", password: "long enough pw" }));
    expect(signup.status).toBe(422);
    expect(await signup.json()).toEqual({
      error: {
        code: "validation_failed",
        message: "Yer papers be wrong",
        status: 422,
        fields: { email: ["be empty as a rum barrel"] },
      },
    });
    const token = await send(json("/api/auth/token", { email: "a@b.co", password: "nope" }));
    expect(token.status).toBe(401);
    expect((await token.json()).error).toEqual({
      code: "invalid_credentials",
      message: "Walk the plank",
      status: 401,
    });
  });

  it("flash and mail in the locale of the request that signs up", async () => {
    const { send, mailer } = await mounted();
    const email = "ada@example.com";
    const signup = await send(form("/signup", { email, password: "long enough pw" }));
    expect(signup.status).toBe(303);
    expect(mailer.last(email)?.subject).toBe("Prove yer bottle");
    const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
    const account = await send(new Request("https://app.example/account", { headers: { cookie } }));
    expect(await account.text()).toContain("Welcome aboard, matey!");
  });
});
