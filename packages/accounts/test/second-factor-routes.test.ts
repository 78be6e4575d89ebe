import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { accountMigrations, SqlSecondFactorStore, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { accountRoutes, MFA_MAXIMUM_FAILURES, totpCode } from "../src/index.js";
import { jsonCaller } from "./json-caller.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-second-factors-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PASSWORD = "correct horse battery staple";
const ORIGIN = "https://app.example";
const STEP = 30_000;

/**
 * `accountRoutes` with second factors on a SQLite file. `clock` is the test's (`null` for the
 * real one); each app answers one client address, so rate limits stay within a test.
 */
async function app(clock: { now: number } | null = { now: Date.UTC(2026, 10, 26, 12, 0, 10) }) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  const mailer = new MemoryMailer();
  const accounts = accountRoutes({
    ...sqlAccountStores(database),
    mailer,
    secondFactors: new SqlSecondFactorStore(database),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    totpIssuer: "Tessera Test",
    passwords: { iterations: 1000 },
    ...(clock ? { clock: () => clock.now } : {}),
  });
  const handle = routeRequests(accounts.routes);
  const clientAddress = `203.0.113.${Math.floor(Math.random() * 250)}`;
  const call = jsonCaller(handle, ORIGIN, clientAddress);
  const now = () => clock?.now ?? Date.now();
  /** A client at `address`: JSON calls as `call` makes them. */
  const callFrom = (address: string) => jsonCaller(handle, ORIGIN, address);
  /** A browser (at `address`, default the app's client): its cookie jar and same-origin posts. */
  const browser = (address = clientAddress) => {
    let cookie = "";
    return async (method: "GET" | "POST", path: string, fields?: Record<string, string>) => {
      const headers: Record<string, string> = { origin: ORIGIN, host: "app.example", cookie };
      if (fields) headers["content-type"] = "application/x-www-form-urlencoded";
      const request = new Request(`${ORIGIN}${path}`, {
        method,
        headers,
        ...(fields ? { body: new URLSearchParams(fields) } : {}),
      });
      const response = await handle(request, { clientAddress: address });
      if (!response) throw new Error(`no route for ${method} ${path}`);
      const set = response.headers.getSetCookie()[0];
      if (set) cookie = set.split(";")[0]!;
      return response;
    };
  };
  return { call, callFrom, database, now, browser, mailer };
}

type App = Awaited<ReturnType<typeof app>>;

async function signedUp({ call }: App) {
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await call("POST", "/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  const token = await call("POST", "/api/auth/token", { email, password: PASSWORD });
  expect(token.status).toBe(200);
  return { email, bearer: ((await token.json()) as { token: string }).token };
}

/** A user with TOTP on: its key (as the app would read the QR code) and its backup codes. */
async function withTotp(subject: App, confirmAt = subject.now()) {
  const user = await signedUp(subject);
  const setup = await subject.call(
    "POST",
    "/api/auth/mfa/totp",
    { password: PASSWORD },
    user.bearer,
  );
  expect(setup.status).toBe(201);
  const { secret } = (await setup.json()) as { secret: string };
  const key = decodeBase32IgnorePadding(secret);
  const confirm = await subject.call(
    "POST",
    "/api/auth/mfa/totp/confirm",
    { code: totpCode(key, confirmAt) },
    user.bearer,
  );
  expect(confirm.status).toBe(200);
  const { backup_codes } = (await confirm.json()) as { backup_codes: string[] };
  return { ...user, key, backupCodes: backup_codes };
}

async function mfaToken({ call }: App, email: string) {
  const refused = await call("POST", "/api/auth/token", { email, password: PASSWORD });
  expect(refused.status).toBe(403);
  return ((await refused.json()) as { mfa_token: string }).mfa_token;
}

/** A token of a sign-in with both factors (the password, then `backupCode`): a full sign-in. */
async function twoFactorBearer(subject: App, email: string, backupCode: string) {
  const mfa_token = await mfaToken(subject, email);
  const granted = await subject.call("POST", "/api/auth/token/mfa", {
    mfa_token,
    code: backupCode,
  });
  expect(granted.status).toBe(200);
  return ((await granted.json()) as { token: string }).token;
}

/** The 403 of a credential change without a recent, full sign-in. */
async function expectReauthenticationRequired(response: Response) {
  expect(response.status).toBe(403);
  const { error } = (await response.json()) as { error: { code: string } };
  expect(error.code).toBe("reauthentication_required");
}

describe("TOTP enrolment", () => {
  it("gives the secret, its URI and a QR code, keeps it sealed and pending until confirmed", async () => {
    const subject = await app();
    const { email, bearer } = await signedUp(subject);
    const wrong = await subject.call("POST", "/api/auth/mfa/totp", { password: "nope" }, bearer);
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe(
      "invalid_credentials",
    );
    const setup = await subject.call("POST", "/api/auth/mfa/totp", { password: PASSWORD }, bearer);
    expect(setup.status).toBe(201);
    const body = (await setup.json()) as { secret: string; uri: string; qr_svg: string };
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(body.uri);
    expect(`${uri.protocol}//${uri.host}${decodeURIComponent(uri.pathname)}`).toBe(
      `otpauth://totp/Tessera Test:${email}`,
    );
    expect(uri.searchParams.get("secret")).toBe(body.secret);
    expect(uri.searchParams.get("issuer")).toBe("Tessera Test");
    expect(body.qr_svg).toMatch(/^<svg[^>]*>/);
    expect(body.qr_svg).not.toMatch(/<script|href/i);
    const row = await subject.database.get<{ sealed_key: string; confirmed_at: string | null }>(
      "SELECT sealed_key, confirmed_at FROM user_totp",
    );
    expect(row?.confirmed_at).toBeNull();
    expect(row?.sealed_key).not.toContain(body.secret);
    // Pending: a password alone still signs in.
    const token = await subject.call("POST", "/api/auth/token", { email, password: PASSWORD });
    expect(token.status).toBe(200);
    const me = await subject.call("GET", "/api/auth/me", undefined, bearer);
    expect(((await me.json()) as { mfa: unknown }).mfa).toEqual({ totp: false, passkeys: 0 });
  });

  it("confirms with a code from the app, and shows ten backup codes stored only as digests", async () => {
    const subject = await app();
    const { bearer } = await signedUp(subject);
    const setup = await subject.call("POST", "/api/auth/mfa/totp", { password: PASSWORD }, bearer);
    const key = decodeBase32IgnorePadding(((await setup.json()) as { secret: string }).secret);
    const wrongCode = totpCode(key, subject.now() + 5 * STEP);
    const wrong = await subject.call(
      "POST",
      "/api/auth/mfa/totp/confirm",
      { code: wrongCode },
      bearer,
    );
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { error: { fields: unknown } }).error.fields).toEqual({
      code: ["is invalid"],
    });
    const right = await subject.call(
      "POST",
      "/api/auth/mfa/totp/confirm",
      { code: totpCode(key, subject.now()) },
      bearer,
    );
    expect(right.status).toBe(200);
    const { backup_codes } = (await right.json()) as { backup_codes: string[] };
    expect(backup_codes).toHaveLength(10);
    const rows = await subject.database.all<{ digest: string }>(
      "SELECT digest FROM user_backup_codes",
    );
    expect(rows).toHaveLength(10);
    for (const code of backup_codes) {
      expect(rows.some(({ digest }) => digest.includes(code.replace("-", "")))).toBe(false);
    }
    // With TOTP on, the password alone no longer manages factors: the token's sign-in had one.
    const oneFactor = await subject.call(
      "POST",
      "/api/auth/mfa/totp",
      { password: PASSWORD },
      bearer,
    );
    await expectReauthenticationRequired(oneFactor);
    const { email } = (await (
      await subject.call("GET", "/api/auth/me", undefined, bearer)
    ).json()) as {
      email: string;
    };
    const full = await twoFactorBearer(subject, email, backup_codes[0]!);
    const again = await subject.call("POST", "/api/auth/mfa/totp", { password: PASSWORD }, full);
    expect(again.status).toBe(409);
    const me = await subject.call("GET", "/api/auth/me", undefined, bearer);
    expect(((await me.json()) as { mfa: unknown }).mfa).toEqual({ totp: true, passkeys: 0 });
  });
});

describe("signing in with a second factor", () => {
  it("answers a right password with 403 mfa_required and no token", async () => {
    const subject = await app();
    const { email } = await withTotp(subject);
    const response = await subject.call("POST", "/api/auth/token", { email, password: PASSWORD });
    expect(response.status).toBe(403);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      error: {
        code: "mfa_required",
        message: "A second factor is required to sign in.",
        status: 403,
      },
      mfa_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      methods: ["totp", "backup_code"],
    });
    expect(body).not.toHaveProperty("token");
  });

  it("grants a token for a current code once, and refuses the code its step already used", async () => {
    const clock = { now: Date.UTC(2026, 10, 26, 12, 0, 10) };
    const subject = await app(clock);
    const { email, key } = await withTotp(subject);
    const first = await mfaToken(subject, email);
    // The confirmation used this step's code: it is refused now (no replay inside its window).
    const replayed = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: first,
      code: totpCode(key, clock.now),
    });
    expect(replayed.status).toBe(401);
    clock.now += STEP;
    const granted = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: first,
      code: totpCode(key, clock.now),
    });
    expect(granted.status).toBe(200);
    const body = (await granted.json()) as {
      token: string;
      token_type: string;
      expires_in: number;
    };
    expect(body.token_type).toBe("Bearer");
    const me = await subject.call("GET", "/api/auth/me", undefined, body.token);
    expect(((await me.json()) as { email: string }).email).toBe(email);
    // The mfa_token is void after it succeeded, even with a fresh code.
    clock.now += STEP;
    const reused = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: first,
      code: totpCode(key, clock.now),
    });
    expect(reused.status).toBe(401);
  });

  it("accepts each backup code once", async () => {
    const subject = await app();
    const { email, backupCodes } = await withTotp(subject);
    const code = backupCodes[3]!.toUpperCase();
    const first = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: await mfaToken(subject, email),
      code,
    });
    expect(first.status).toBe(200);
    const again = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: await mfaToken(subject, email),
      code,
    });
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe(
      "invalid_credentials",
    );
  });

  it(`voids an mfa_token after ${MFA_MAXIMUM_FAILURES} wrong codes`, async () => {
    const clock = { now: Date.UTC(2026, 10, 26, 12, 0, 10) };
    const subject = await app(clock);
    const { email, key } = await withTotp(subject);
    const token = await mfaToken(subject, email);
    for (let attempt = 0; attempt < MFA_MAXIMUM_FAILURES; attempt++) {
      const wrong = await subject.call("POST", "/api/auth/token/mfa", {
        mfa_token: token,
        code: "000000",
      });
      expect(wrong.status).toBe(401);
    }
    clock.now += STEP;
    const right = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: token,
      code: totpCode(key, clock.now),
    });
    expect(right.status).toBe(401);
  });

  it("refuses an expired mfa_token, an unknown one, and another user's code", async () => {
    const clock = { now: Date.UTC(2026, 10, 26, 12, 0, 10) };
    const subject = await app(clock);
    const ada = await withTotp(subject);
    const bob = await withTotp(subject);
    clock.now += STEP;
    const adasToken = await mfaToken(subject, ada.email);
    const bobsCode = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: adasToken,
      code: bob.backupCodes[0],
    });
    expect(bobsCode.status).toBe(401);
    const unknown = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: "x".repeat(43),
      code: totpCode(ada.key, clock.now),
    });
    expect(unknown.status).toBe(401);
    clock.now += 5 * 60_000;
    const expired = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: adasToken,
      code: totpCode(ada.key, clock.now),
    });
    expect(expired.status).toBe(401);
  });

  it("is rate limited per client", async () => {
    const subject = await app();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await subject.call("POST", "/api/auth/token/mfa", {
        mfa_token: "x".repeat(43),
        code: "123456",
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("works on the real clock: a code of the next step signs in after the confirmation", async () => {
    const subject = await app(null);
    const { email, key } = await withTotp(subject, Date.now());
    const granted = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: await mfaToken(subject, email),
      code: totpCode(key, Date.now() + STEP),
    });
    expect(granted.status).toBe(200);
  });
});

describe("managing TOTP", () => {
  it("regenerates backup codes: the old ones stop working, the new ones work", async () => {
    const subject = await app();
    const { email, bearer: oneFactor, backupCodes } = await withTotp(subject);
    await expectReauthenticationRequired(
      await subject.call("POST", "/api/auth/mfa/backup_codes", { password: PASSWORD }, oneFactor),
    );
    const bearer = await twoFactorBearer(subject, email, backupCodes[9]!);
    const wrong = await subject.call(
      "POST",
      "/api/auth/mfa/backup_codes",
      { password: "no" },
      bearer,
    );
    expect(wrong.status).toBe(401);
    const fresh = await subject.call(
      "POST",
      "/api/auth/mfa/backup_codes",
      { password: PASSWORD },
      bearer,
    );
    expect(fresh.status).toBe(200);
    const { backup_codes } = (await fresh.json()) as { backup_codes: string[] };
    expect(backup_codes).toHaveLength(10);
    const old = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: await mfaToken(subject, email),
      code: backupCodes[0],
    });
    expect(old.status).toBe(401);
    const current = await subject.call("POST", "/api/auth/token/mfa", {
      mfa_token: await mfaToken(subject, email),
      code: backup_codes[0],
    });
    expect(current.status).toBe(200);
  });

  it("turns TOTP off with the password: a password alone signs in again", async () => {
    const subject = await app();
    const { email, bearer: oneFactor, backupCodes } = await withTotp(subject);
    await expectReauthenticationRequired(
      await subject.call("DELETE", "/api/auth/mfa/totp", { password: PASSWORD }, oneFactor),
    );
    const bearer = await twoFactorBearer(subject, email, backupCodes[0]!);
    const wrong = await subject.call("DELETE", "/api/auth/mfa/totp", { password: "no" }, bearer);
    expect(wrong.status).toBe(401);
    const off = await subject.call("DELETE", "/api/auth/mfa/totp", { password: PASSWORD }, bearer);
    expect(off.status).toBe(204);
    const token = await subject.call("POST", "/api/auth/token", { email, password: PASSWORD });
    expect(token.status).toBe(200);
    const codes = await subject.database.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM user_backup_codes",
    );
    expect(codes?.n).toBe(0);
    const regenerate = await subject.call(
      "POST",
      "/api/auth/mfa/backup_codes",
      { password: PASSWORD },
      bearer,
    );
    expect(regenerate.status).toBe(409);
  });

  it("needs a bearer token for every enrolment route", async () => {
    const subject = await app();
    for (const [method, path] of [
      ["POST", "/api/auth/mfa/totp"],
      ["POST", "/api/auth/mfa/totp/confirm"],
      ["DELETE", "/api/auth/mfa/totp"],
      ["POST", "/api/auth/mfa/backup_codes"],
    ] as const) {
      expect((await subject.call(method, path, { password: PASSWORD })).status).toBe(401);
    }
  });

  it("refuses malformed bodies with a 400", async () => {
    const subject = await app();
    const { bearer } = await signedUp(subject);
    const confirm = await subject.call(
      "POST",
      "/api/auth/mfa/totp/confirm",
      { code: 123456 },
      bearer,
    );
    expect(confirm.status).toBe(400);
    const mfa = await subject.call("POST", "/api/auth/token/mfa", { mfa_token: ["x"], code: "1" });
    expect(mfa.status).toBe(400);
  });
});

describe("the second-factor answers to one account", () => {
  const ACCOUNT_LIMIT = 10;
  /** A different client address for each request, as a botnet or an IPv6 /48 would send. */
  const addresses = (() => {
    let next = 0;
    return () => `198.51.100.${++next}`;
  })();

  /** The `mfa_token` of a password sign-in made from a client address of its own. */
  async function mfaTokenFromAfar(subject: App, email: string) {
    const call = subject.callFrom(addresses());
    const refused = await call("POST", "/api/auth/token", { email, password: PASSWORD });
    expect(refused.status).toBe(403);
    return ((await refused.json()) as { mfa_token: string }).mfa_token;
  }

  /** Answers `ACCOUNT_LIMIT` wrong codes, each from a new address, over as many tokens as that takes. */
  async function spendTheAccountsAnswers(subject: App, email: string) {
    let token = await mfaTokenFromAfar(subject, email);
    for (let answer = 1; answer <= ACCOUNT_LIMIT; answer++) {
      const wrong = await subject.callFrom(addresses())("POST", "/api/auth/token/mfa", {
        mfa_token: token,
        code: "000000",
      });
      expect(wrong.status).toBe(401);
      if (answer % MFA_MAXIMUM_FAILURES === 0) token = await mfaTokenFromAfar(subject, email);
    }
  }

  it(`judges no more than ${ACCOUNT_LIMIT} in a row, whatever the client addresses, then makes the account wait`, async () => {
    const clock = { now: Date.UTC(2026, 10, 26, 12, 0, 10) };
    const subject = await app(clock);
    const { email, backupCodes } = await withTotp(subject);
    await spendTheAccountsAnswers(subject, email);
    const token = await mfaTokenFromAfar(subject, email);

    const right = { mfa_token: token, code: backupCodes[0] };
    const limited = await subject.callFrom(addresses())("POST", "/api/auth/token/mfa", right);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.json()).toEqual({
      error: {
        status: 429,
        code: "account_throttled",
        message:
          "Too many failed attempts to sign in to this account; wait a while, or sign in another way.",
      },
    });

    // It was not judged: the backup code is still there, and signs in once the wait is over.
    clock.now += 60_000;
    const later = await subject.callFrom(addresses())("POST", "/api/auth/token/mfa", right);
    expect(later.status).toBe(200);
  });

  it("counts the HTML second step with the JSON one, and answers its 429 page", async () => {
    const subject = await app();
    const { email, backupCodes } = await withTotp(subject);
    await spendTheAccountsAnswers(subject, email);
    const page = subject.browser(addresses());
    expect((await page("POST", "/login", { email, password: PASSWORD })).status).toBe(303);
    const limited = await page("POST", "/login/second_factor", { code: backupCodes[0]! });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.text()).toContain("Too many requests. Try again later.");
    expect((await page("GET", "/account")).status).toBe(303);
  });

  it("leaves other accounts' answers alone", async () => {
    const clock = { now: Date.UTC(2026, 10, 26, 12, 0, 10) };
    const subject = await app(clock);
    const ada = await withTotp(subject);
    const bob = await withTotp(subject);
    await spendTheAccountsAnswers(subject, ada.email);
    const bobsToken = await mfaTokenFromAfar(subject, bob.email);
    const granted = await subject.callFrom(addresses())("POST", "/api/auth/token/mfa", {
      mfa_token: bobsToken,
      code: bob.backupCodes[0],
    });
    expect(granted.status).toBe(200);
  });
});

describe("the HTML sign-in of a user with a second factor", () => {
  it("signs nobody in after the password, then signs in after a right code", async () => {
    const clock = { now: Date.UTC(2026, 10, 26, 12, 0, 10) };
    const subject = await app(clock);
    const { email, key } = await withTotp(subject);
    const page = subject.browser();
    const login = await page("POST", "/login", { email, password: PASSWORD });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/login/second_factor");
    expect((await page("GET", "/account")).status).toBe(303);
    const form = await page("GET", "/login/second_factor");
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('autocomplete="one-time-code"');
    const wrong = await page("POST", "/login/second_factor", { code: "000000" });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain("That code is not valid.");
    clock.now += STEP;
    const right = await page("POST", "/login/second_factor", { code: totpCode(key, clock.now) });
    expect(right.status).toBe(303);
    // The page the browser asked for while signed out, remembered through both steps.
    expect(right.headers.get("location")).toBe("/account");
    const account = await page("GET", "/account");
    expect(account.status).toBe(200);
    expect(await account.text()).toContain(email);
  });

  it("carries remember-me through the second step", async () => {
    const subject = await app();
    const { email, backupCodes } = await withTotp(subject);
    const page = subject.browser();
    const login = await page("POST", "/login", { email, password: PASSWORD, remember_me: "1" });
    expect(login.headers.getSetCookie()[0]).not.toMatch(/Max-Age|Expires/i);
    const right = await page("POST", "/login/second_factor", { code: backupCodes[1]! });
    expect(right.status).toBe(303);
    expect(right.headers.getSetCookie()[0]).toMatch(/Max-Age=\d+|Expires=/i);
  });

  it("sends the browser back to log in after five wrong codes, or with no sign-in waiting", async () => {
    const subject = await app();
    const { email, backupCodes } = await withTotp(subject);
    const page = subject.browser();
    expect((await page("GET", "/login/second_factor")).headers.get("location")).toBe("/login");
    await page("POST", "/login", { email, password: PASSWORD });
    for (let attempt = 1; attempt < MFA_MAXIMUM_FAILURES; attempt++) {
      expect((await page("POST", "/login/second_factor", { code: "000000" })).status).toBe(422);
    }
    const last = await page("POST", "/login/second_factor", { code: "000000" });
    expect(last.status).toBe(303);
    expect(last.headers.get("location")).toBe("/login");
    expect(await (await page("GET", "/login")).text()).toContain("Log in again.");
    const late = await page("POST", "/login/second_factor", { code: backupCodes[0]! });
    expect(late.headers.get("location")).toBe("/login");
    expect((await page("GET", "/account")).status).toBe(303);
  });

  it("asks for the second factor after a sign-in link too", async () => {
    const subject = await app();
    const { email } = await withTotp(subject);
    const page = subject.browser();
    expect((await page("POST", "/magic_link", { email })).status).toBe(303);
    await expect.poll(() => subject.mailer.sent.length).toBe(1);
    const link = /\/magic_link\/[A-Za-z0-9_-]{43}/.exec(subject.mailer.sent[0]!.text)![0];
    const used = await page("POST", link, {});
    expect(used.status).toBe(303);
    expect(used.headers.get("location")).toBe("/login/second_factor");
    expect((await page("GET", "/account")).status).toBe(303);
  });
});

describe("the second factor routes in a locale", () => {
  it("write the locale's language headers into their answers and refusals", async () => {
    const subject = await app();
    const sendInFrench = (path: string, body: unknown, bearer?: string) =>
      subject.call("POST", path, body, bearer, FRENCH);
    const { email, bearer } = await signedUp(subject);
    const setup = await sendInFrench("/api/auth/mfa/totp", { password: PASSWORD }, bearer);
    expect(languageOf(setup)).toEqual(inFrench(201));
    const wrongPassword = await sendInFrench(
      "/api/auth/mfa/totp",
      { password: "not it at all" },
      bearer,
    );
    expect(languageOf(wrongPassword)).toEqual(inFrench(401));
    const key = decodeBase32IgnorePadding(((await setup.json()) as { secret: string }).secret);
    const code = totpCode(key, subject.now());
    const confirmed = await sendInFrench("/api/auth/mfa/totp/confirm", { code }, bearer);
    expect(languageOf(confirmed)).toEqual(inFrench(200));
    const { backup_codes } = (await confirmed.json()) as { backup_codes: string[] };
    const stale = await sendInFrench("/api/auth/mfa/totp", { password: PASSWORD }, bearer);
    expect(languageOf(stale)).toEqual(inFrench(403));
    const required = await sendInFrench("/api/auth/token", { email, password: PASSWORD });
    expect(languageOf(required)).toEqual(inFrench(403));
    const { mfa_token } = (await required.json()) as { mfa_token: string };
    const granted = await sendInFrench("/api/auth/token/mfa", { mfa_token, code: backup_codes[0] });
    expect(languageOf(granted)).toEqual(inFrench(200));
    const { token } = (await granted.json()) as { token: string };
    const again = await sendInFrench("/api/auth/mfa/totp", { password: PASSWORD }, token);
    expect(languageOf(again)).toEqual(inFrench(409));
  });
});
