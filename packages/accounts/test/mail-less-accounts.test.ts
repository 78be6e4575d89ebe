import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { type Mailer, MemoryMailer } from "@tessera/mail";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { describe, expect, it } from "vitest";
import { accountRoutes, type MissingMailer, missingMailer } from "../src/index.js";

const ORIGIN = "https://app.example";
const PASSWORD = "correct horse battery staple";
const sameOrigin = { origin: ORIGIN, host: "app.example" };

/** `accountRoutes` with this mailer (or none), and a browser that keeps its one cookie. */
async function accountsWith(mailer: Mailer | MissingMailer | undefined) {
  const database = openSqliteFile(":memory:");
  await applyMigrations(database, accountMigrations);
  const accounts = accountRoutes({
    ...sqlAccountStores(database),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    ...(mailer === undefined ? {} : { mailer }),
  });
  const handle = routeRequests(accounts.routes);
  let cookie = "";
  /** The answer, or undefined when no route is mounted there (the adapters' 404). */
  const send = async (path: string, form?: Record<string, string>) => {
    const headers: Record<string, string> = { ...sameOrigin, ...(cookie ? { cookie } : {}) };
    const request = form
      ? new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form),
        })
      : new Request(`${ORIGIN}${path}`, { headers });
    const response = await handle(request, { clientAddress: "203.0.113.9" });
    const setCookie = response?.headers.getSetCookie()[0];
    if (setCookie) cookie = setCookie.split(";")[0]!;
    return response;
  };
  const page = async (path: string) => {
    const response = await send(path);
    expect(response?.status).toBe(200);
    return response!.text();
  };
  const signUp = async () => {
    const email = `mei-${crypto.randomUUID()}@example.com`;
    expect((await send("/signup", { email, password: PASSWORD }))?.status).toBe(303);
    return email;
  };
  return { send, page, signUp };
}

describe("accountRoutes without a mailer", () => {
  it("offers no sign-in link or password reset on the login page", async () => {
    const { page } = await accountsWith(undefined);
    const login = await page("/login");
    expect(login).not.toContain('href="/magic_link"');
    expect(login).not.toContain('href="/passwords/new"');
    expect(login).not.toContain("Forgot your password?");
    expect(login).toContain('action="/login"');
  });

  it("mounts no route that exists to send a mail", async () => {
    const { send } = await accountsWith(undefined);
    for (const path of ["/magic_link", "/passwords/new"]) expect(await send(path)).toBeUndefined();
    const email = { email: "someone@example.com" };
    for (const path of ["/magic_link", "/passwords", "/confirmations"]) {
      expect(await send(path, email)).toBeUndefined();
    }
  });

  it("welcomes a new user without promising a mail, and offers no confirmation", async () => {
    const { page, signUp } = await accountsWith(undefined);
    const email = await signUp();
    const account = await page("/account");
    expect(account).toContain("Welcome! Your account is ready.");
    expect(account).not.toContain("Check your email");
    expect(account).not.toContain("We sent");
    expect(account).not.toContain('action="/confirmations"');
    expect(account).toContain(email);
  });
});

describe("accountRoutes with a mailer", () => {
  it("offers the emailed links, and says the confirmation link was sent", async () => {
    const mailer = new MemoryMailer();
    const { page, signUp } = await accountsWith(mailer);
    const login = await page("/login");
    expect(login).toContain('href="/magic_link"');
    expect(login).toContain('href="/passwords/new"');
    const email = await signUp();
    const account = await page("/account");
    expect(account).toContain("Check your email to confirm your address.");
    expect(account).toContain(`We sent a confirmation link to ${email}.`);
    expect(account).toContain('action="/confirmations"');
    expect(mailer.sent.map((mail) => mail.to)).toEqual([email]);
  });
});

describe("accountRoutes with a missing mailer", () => {
  it("keeps the links offered, answers 500 naming the setting, and claims no mail", async () => {
    const { send, page, signUp } = await accountsWith(missingMailer("MAIL_DELIVERY"));
    expect(await page("/login")).toContain('href="/magic_link"');
    const email = await signUp();
    const account = await page("/account");
    expect(account).not.toContain("Check your email");
    expect(account).not.toContain("We sent");
    expect(account).toContain(`Your email address ${email} is not confirmed yet.`);
    expect(account).toContain('action="/confirmations"');
    const refused = await send("/magic_link", { email });
    expect(refused?.status).toBe(500);
    expect(await refused?.text()).toBe(
      "Email cannot be sent: no mail delivery is configured (MAIL_DELIVERY).",
    );
  });
});
