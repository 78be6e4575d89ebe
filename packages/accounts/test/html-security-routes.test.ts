import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import type { Locale } from "@tessera/core";
import { routeRequests } from "@tessera/http";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { accountRoutes, totpCode } from "../src/index.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-security-page-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PASSWORD = "correct horse battery staple";
const ORIGIN = "https://app.example";

/** The account routes with second factors and passkeys on, and browsers with cookie jars. */
async function app() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  const accounts = accountRoutes({
    ...sqlAccountStores(database),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    passkeyScripts: ["/assets/webauthn.js", "/assets/passkeys.js"],
    passwords: { iterations: 1000 },
  });
  const handle = routeRequests(accounts.routes);
  const clientAddress = `203.0.113.${Math.floor(Math.random() * 250)}`;
  /**
   * A browser: its cookie jar, same-origin form posts and the page script's JSON posts; in
   * `locale` when given (as `localeNegotiation` would choose it).
   */
  const browser = (locale?: Locale) => {
    let cookie = "";
    const send = async (method: string, path: string, body?: BodyInit, type?: string) => {
      const headers: Record<string, string> = { origin: ORIGIN, host: "app.example", cookie };
      if (type) headers["content-type"] = type;
      const request = new Request(`${ORIGIN}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      const response = await handle(request, { clientAddress, ...(locale ? { locale } : {}) });
      if (!response) throw new Error(`no route for ${method} ${path}`);
      const set = response.headers.getSetCookie()[0];
      if (set) cookie = set.split(";")[0]!;
      return response;
    };
    return {
      get: (path: string) => send("GET", path),
      form: (path: string, fields: Record<string, string> = {}) =>
        send("POST", path, new URLSearchParams(fields), "application/x-www-form-urlencoded"),
      json: (path: string, body: unknown = {}) =>
        send("POST", path, JSON.stringify(body), "application/json"),
    };
  };
  return { browser, database };
}

type App = Awaited<ReturnType<typeof app>>;

async function signedUp(subject: App) {
  const page = subject.browser();
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await page.form("/signup", { email, password: PASSWORD })).status).toBe(303);
  return { page, email };
}

/** Adds a passkey through the security page's JSON steps, as its script does. */
async function addPasskey(page: ReturnType<App["browser"]>, name = "Laptop") {
  const options = (await (await page.json("/account/security/passkeys/options")).json()) as {
    challenge: string;
  };
  const authenticator = await SoftwareAuthenticator.create(ORIGIN);
  const response = await authenticator.register(options.challenge);
  const added = await page.json("/account/security/passkeys", { name, response });
  expect(added.status).toBe(201);
  return { authenticator, id: ((await added.json()) as { id: number }).id };
}

async function turnOnTotp(page: ReturnType<App["browser"]>) {
  const setup = await page.form("/account/security/totp", { password: PASSWORD });
  expect(setup.status).toBe(200);
  // The key and then the backup codes are shown once: no cache may keep them.
  expect(setup.headers.get("cache-control")).toBe("no-store");
  const html = await setup.text();
  expect(html).toMatch(/<div class="qr"><svg/);
  const secret = /<code id="totp-secret">([A-Z2-7]+)<\/code>/.exec(html)?.[1] ?? "";
  const key = decodeBase32IgnorePadding(secret);
  const confirmed = await page.form("/account/security/totp/confirm", {
    code: totpCode(key, Date.now()),
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.headers.get("cache-control")).toBe("no-store");
  const codes = [...(await confirmed.text()).matchAll(/<li><code>([\w-]+)<\/code><\/li>/g)];
  expect(codes).toHaveLength(10);
  return { key, backupCodes: codes.map((match) => match[1]!) };
}

describe("the security page", () => {
  it("links from the account page, turns TOTP on, and asks the password again to turn it off", async () => {
    const subject = await app();
    const { page } = await signedUp(subject);
    expect(await (await page.get("/account")).text()).toContain('href="/account/security"');
    const wrongOn = await page.form("/account/security/totp", { password: "nope" });
    expect(wrongOn.status).toBe(422);
    expect(await wrongOn.text()).toContain("The password is incorrect.");
    const { backupCodes } = await turnOnTotp(page);
    const security = await (await page.get("/account/security")).text();
    expect(security).toContain("Two-factor codes are on. Backup codes left: 10.");
    // The browser signed in with the password alone: with TOTP on, managing it asks again, in
    // place, for the password and a code.
    expect(security).toContain("Confirm it is you");
    const stale = await page.form("/account/security/backup_codes", { password: PASSWORD });
    expect(stale.status).toBe(403);
    expect(await stale.text()).toContain("This needs a recent sign-in");
    const wrongCode = await page.form("/account/security/reauthenticate", {
      password: PASSWORD,
      code: "000000",
    });
    expect(wrongCode.status).toBe(422);
    const confirmed = await page.form("/account/security/reauthenticate", {
      password: PASSWORD,
      code: backupCodes[0]!,
    });
    expect(confirmed.status).toBe(303);
    expect(await (await page.get("/account/security")).text()).not.toContain("Confirm it is you");
    const regenerated = await page.form("/account/security/backup_codes", { password: PASSWORD });
    expect(regenerated.headers.get("cache-control")).toBe("no-store");
    expect([...(await regenerated.text()).matchAll(/<li><code>/g)]).toHaveLength(10);

    const wrongOff = await page.form("/account/security/totp/delete", { password: "nope" });
    expect(wrongOff.status).toBe(422);
    expect(await subject.database.all("SELECT user_id FROM user_totp")).toHaveLength(1);
    const off = await page.form("/account/security/totp/delete", { password: PASSWORD });
    expect(off.status).toBe(303);
    expect(await subject.database.all("SELECT user_id FROM user_totp")).toHaveLength(0);
  });

  it("shows the same key again after a wrong first code", async () => {
    const subject = await app();
    const { page } = await signedUp(subject);
    const setup = await (await page.form("/account/security/totp", { password: PASSWORD })).text();
    const secret = /<code id="totp-secret">([A-Z2-7]+)<\/code>/.exec(setup)?.[1];
    const wrong = await page.form("/account/security/totp/confirm", { code: "000000x" });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain(`<code id="totp-secret">${secret}</code>`);
  });

  it("adds, renames and removes passkeys, each for its own user only", async () => {
    const subject = await app();
    const ada = await signedUp(subject);
    const bob = await signedUp(subject);
    const { id } = await addPasskey(ada.page, "<b>Laptop</b>");
    const listed = await (await ada.page.get("/account/security")).text();
    expect(listed).toContain("&lt;b&gt;Laptop&lt;/b&gt;");
    expect(listed).toContain('<script src="/assets/passkeys.js" defer');

    expect((await bob.page.form(`/account/security/passkeys/${id}`, { name: "Mine" })).status).toBe(
      303,
    );
    expect((await bob.page.form(`/account/security/passkeys/${id}/delete`)).status).toBe(303);
    const kept = await subject.database.all<{ name: string }>("SELECT name FROM passkeys");
    expect(kept).toEqual([{ name: "<b>Laptop</b>" }]);

    const blank = await ada.page.form(`/account/security/passkeys/${id}`, { name: "  " });
    expect(blank.status).toBe(422);
    expect(await blank.text()).toContain("Name can&#39;t be blank");
    await ada.page.form(`/account/security/passkeys/${id}`, { name: "Work laptop" });
    expect(await subject.database.all("SELECT name FROM passkeys")).toEqual([
      { name: "Work laptop" },
    ]);
    await ada.page.form(`/account/security/passkeys/${id}/delete`);
    expect(await subject.database.all("SELECT name FROM passkeys")).toEqual([]);

    const stranger = subject.browser();
    const refused = await stranger.json("/account/security/passkeys/options");
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toMatch(/^\/login/);
  });
});

describe("passkeys on the log-in pages", () => {
  it("signs a browser in with a passkey, and offers the button and autofill on /login", async () => {
    const subject = await app();
    const { page } = await signedUp(subject);
    const { authenticator } = await addPasskey(page);
    const login = await subject.browser().get("/login");
    const html = await login.text();
    expect(html).toContain('autocomplete="username webauthn"');
    expect(html).toContain("Sign in with a passkey");

    const visitor = subject.browser();
    const { options, challenge_id } = (await (
      await visitor.json("/login/passkey/options")
    ).json()) as { options: { challenge: string }; challenge_id: string };
    const response = await authenticator.authenticate(options.challenge);
    const signedIn = await visitor.json("/login/passkey", { challenge_id, response });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({ location: "/" });
    expect((await visitor.get("/account")).status).toBe(200);
    const replayed = await subject.browser().json("/login/passkey", { challenge_id, response });
    expect(replayed.status).toBe(401);
  });

  it("sends a passkey that did not verify its user to the second step, which only a code answers", async () => {
    const subject = await app();
    const { page } = await signedUp(subject);
    const { authenticator } = await addPasskey(page);
    const { backupCodes } = await turnOnTotp(page);

    const visitor = subject.browser();
    const { challenge_id } = (await (await visitor.json("/login/passkey/options")).json()) as {
      challenge_id: string;
    };
    const touch = await authenticator.authenticate(challenge_id, { userVerified: false });
    const first = await visitor.json("/login/passkey", { challenge_id, response: touch });
    expect(await first.json()).toEqual({ location: "/login/second_factor" });
    expect((await visitor.get("/account")).status).toBe(303);
    // A factor never answers for itself: the step offers no passkey and hands out no challenge.
    const step = await (await visitor.get("/login/second_factor")).text();
    expect(step).not.toContain("Use a passkey");
    expect((await visitor.json("/login/second_factor/passkey/options")).status).toBe(401);

    const done = await visitor.form("/login/second_factor", { code: backupCodes[0]! });
    expect(done.status).toBe(303);
    // The account page it was sent away from before is where it lands.
    expect(done.headers.get("location")).toBe("/account");
    expect((await visitor.get("/account")).status).toBe(200);
  });
});

describe("the passkey steps of the pages in a locale", () => {
  it("write the locale's language headers into their JSON answers and refusals", async () => {
    const subject = await app();
    const page = subject.browser(FRENCH);
    const email = `ada-${crypto.randomUUID()}@example.com`;
    expect((await page.form("/signup", { email, password: PASSWORD })).status).toBe(303);
    const offered = await page.json("/account/security/passkeys/options");
    expect(languageOf(offered)).toEqual(inFrench(200));
    const authenticator = await SoftwareAuthenticator.create(ORIGIN);
    const { challenge } = (await offered.json()) as { challenge: string };
    const response = await authenticator.register(challenge);
    const added = await page.json("/account/security/passkeys", { name: "Laptop", response });
    expect(languageOf(added)).toEqual(inFrench(201));

    const visitor = subject.browser(FRENCH);
    const signInOptions = await visitor.json("/login/passkey/options");
    expect(languageOf(signInOptions)).toEqual(inFrench(200));
    const { options, challenge_id } = (await signInOptions.json()) as {
      options: { challenge: string };
      challenge_id: string;
    };
    const assertion = await authenticator.authenticate(options.challenge);
    const signedIn = await visitor.json("/login/passkey", { challenge_id, response: assertion });
    expect(languageOf(signedIn)).toEqual(inFrench(200));
    const replayed = await subject
      .browser(FRENCH)
      .json("/login/passkey", { challenge_id, response: assertion });
    expect(languageOf(replayed)).toEqual(inFrench(401));
  });
});

describe("the factors a session was signed in with", () => {
  it("records them on the device's row and shows them on the device list", async () => {
    const subject = await app();
    const { page, email } = await signedUp(subject);
    const { authenticator } = await addPasskey(page);
    const { key } = await turnOnTotp(page);

    const withCode = subject.browser();
    const password = await withCode.form("/login", { email, password: PASSWORD });
    expect(password.headers.get("location")).toBe("/login/second_factor");
    const code = totpCode(key, Date.now() + 30_000);
    expect((await withCode.form("/login/second_factor", { code })).status).toBe(303);

    const withPasskey = subject.browser();
    const { challenge_id } = (await (await withPasskey.json("/login/passkey/options")).json()) as {
      challenge_id: string;
    };
    const response = await authenticator.authenticate(challenge_id);
    expect((await withPasskey.json("/login/passkey", { challenge_id, response })).status).toBe(200);

    const rows = await subject.database.all<{ factors: string }>(
      "SELECT factors FROM user_sessions ORDER BY id",
    );
    // A passkey that verified its user is recorded as the two factors it counts for.
    expect(rows.map((row) => row.factors)).toEqual([
      "password",
      "password,totp",
      "passkey,user_verification",
    ]);
    const devices = await (await withCode.get("/account/sessions")).text();
    expect(devices).toContain('<th scope="col">Signed in with</th>');
    expect(devices).toContain("<td>Password + Authenticator code</td>");
    expect(devices).toContain("<td>Passkey + Verified on the device</td>");
  });
});
