import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import {
  accountMigrations,
  mfaChallengesFirstFactorMigration,
  sqlAccountStores,
} from "@tessera/accounts/sql";
import { formatTimestamp } from "@tessera/core";
import { sha256Hex } from "@tessera/crypto";
import { routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { applyMigrations, type Migration } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { accountRoutes, type SignInEvent, totpCode } from "../src/index.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-first-factor-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PASSWORD = "correct horse battery staple";
const ORIGIN = "https://app.example";
const STEP = 30_000;

/**
 * `accountRoutes` on a SQLite file migrated with `migrations`, on the test's clock, with every
 * `onSignIn` event recorded as `[method, grant, email]`.
 */
async function app(migrations: readonly Migration[] = accountMigrations) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, migrations);
  const clock = { now: Date.UTC(2026, 10, 27, 9, 0, 10) };
  const mailer = new MemoryMailer();
  const signIns: [SignInEvent["method"], SignInEvent["grant"], string][] = [];
  const accounts = accountRoutes({
    ...sqlAccountStores(database),
    mailer,
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    clock: () => clock.now,
    hooks: {
      onSignIn: ({ method, grant, user }) => {
        signIns.push([method, grant, user.email]);
      },
    },
  });
  const handle = routeRequests(accounts.routes);
  const clientAddress = `203.0.113.${Math.floor(Math.random() * 250)}`;
  const send = async (request: Request) => {
    const response = await handle(request, { clientAddress });
    if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
    return response;
  };
  const call = (path: string, body: unknown, bearer?: string) =>
    send(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body: JSON.stringify(body),
      }),
    );
  /** A browser: its cookie jar, same-origin form posts and the page scripts' JSON posts. */
  const browser = () => {
    let cookie = "";
    const post = async (path: string, body: BodyInit, type: string) => {
      const response = await send(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: { origin: ORIGIN, host: "app.example", cookie, "content-type": type },
          body,
        }),
      );
      const set = response.headers.getSetCookie()[0];
      if (set) cookie = set.split(";")[0]!;
      return response;
    };
    return {
      form: (path: string, fields: Record<string, string> = {}) =>
        post(path, new URLSearchParams(fields), "application/x-www-form-urlencoded"),
      json: (path: string, body: unknown = {}) =>
        post(path, JSON.stringify(body), "application/json"),
    };
  };
  /** The next step's TOTP code: the clock moves on, as a code of a used step is refused. */
  const nextCode = (key: Uint8Array) => {
    clock.now += STEP;
    return totpCode(key, clock.now);
  };
  return { database, mailer, signIns, call, browser, nextCode, clock };
}

type App = Awaited<ReturnType<typeof app>>;

/** A user with TOTP on and a passkey; the sign-ins of the set-up are forgotten. */
async function withTotpAndPasskey(subject: App) {
  const { call } = subject;
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  const token = await call("/api/auth/token", { email, password: PASSWORD });
  const { token: bearer } = (await token.json()) as { token: string };
  const options = await call("/api/auth/passkeys/options", {}, bearer);
  const { challenge } = (await options.json()) as { challenge: string };
  const authenticator = await SoftwareAuthenticator.create(ORIGIN);
  const response = await authenticator.register(challenge);
  const added = await call("/api/auth/passkeys", { name: "Laptop", response }, bearer);
  expect(added.status).toBe(201);
  const setup = await call("/api/auth/mfa/totp", { password: PASSWORD }, bearer);
  const { secret } = (await setup.json()) as { secret: string };
  const key = decodeBase32IgnorePadding(secret);
  const confirmed = await call(
    "/api/auth/mfa/totp/confirm",
    {
      code: totpCode(key, subject.clock.now),
    },
    bearer,
  );
  expect(confirmed.status).toBe(200);
  subject.signIns.length = 0;
  return { email, key, authenticator };
}

/** The `mfa_token` of a 403 `mfa_required` answer. */
async function mfaTokenOf(answer: Response): Promise<string> {
  expect(answer.status).toBe(403);
  const body = (await answer.json()) as { error: { code: string }; mfa_token: string };
  expect(body.error.code).toBe("mfa_required");
  return body.mfa_token;
}

/** The factors the tracked sessions of the user with `email` were signed in with. */
async function sessionFactors({ database }: App, email: string) {
  const rows = await database.all<{ factors: string }>(
    "SELECT factors FROM user_sessions JOIN users ON users.id = user_sessions.user_id WHERE users.email = ?",
    [email],
  );
  return rows.map((row) => row.factors);
}

describe("POST /api/auth/token/mfa announces the first factor, not the second", () => {
  it("after a password", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/token", { email, password: PASSWORD }),
    );
    const done = await subject.call("/api/auth/token/mfa", {
      mfa_token,
      code: subject.nextCode(key),
    });
    expect(done.status).toBe(200);
    expect(subject.signIns).toEqual([["password", "token", email]]);
  });

  it("after an emailed code", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    expect((await subject.call("/api/auth/email_code", { email })).status).toBe(202);
    const code = /^(\d{6})$/m.exec(subject.mailer.sent.at(-1)!.text)![1];
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/token/email_code", { email, code }),
    );
    const done = await subject.call("/api/auth/token/mfa", {
      mfa_token,
      code: subject.nextCode(key),
    });
    expect(done.status).toBe(200);
    expect(subject.signIns).toEqual([["email_code", "token", email]]);
  });

  it("after a passkey that did not verify its user", async () => {
    const subject = await app();
    const { email, key, authenticator } = await withTotpAndPasskey(subject);
    const options = await subject.call("/api/auth/passkeys/login/options", {});
    const { challenge_id } = (await options.json()) as { challenge_id: string };
    const response = await authenticator.authenticate(challenge_id, { userVerified: false });
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/passkeys/login", { challenge_id, response }),
    );
    const done = await subject.call("/api/auth/token/mfa", {
      mfa_token,
      code: subject.nextCode(key),
    });
    expect(done.status).toBe(200);
    expect(subject.signIns).toEqual([["passkey", "token", email]]);
  });
});

describe("the HTML second step announces and records the first factor", () => {
  it("after a password", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    const page = subject.browser();
    const login = await page.form("/login", { email, password: PASSWORD });
    expect(login.headers.get("location")).toBe("/login/second_factor");
    const done = await page.form("/login/second_factor", { code: subject.nextCode(key) });
    expect(done.status).toBe(303);
    expect(subject.signIns).toEqual([["password", "session", email]]);
    expect(await sessionFactors(subject, email)).toEqual(["password,totp"]);
  });

  it("after a sign-in link", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    const page = subject.browser();
    expect((await page.form("/magic_link", { email })).status).toBe(303);
    await expect.poll(() => subject.mailer.sent.length).toBeGreaterThan(0);
    const link = /\/magic_link\/[A-Za-z0-9_-]{43}/.exec(subject.mailer.sent.at(-1)!.text)![0];
    const used = await page.form(link);
    expect(used.headers.get("location")).toBe("/login/second_factor");
    const done = await page.form("/login/second_factor", { code: subject.nextCode(key) });
    expect(done.status).toBe(303);
    expect(subject.signIns).toEqual([["email_link", "session", email]]);
    expect(await sessionFactors(subject, email)).toEqual(["magic_link,totp"]);
  });

  it("after a passkey that did not verify its user", async () => {
    const subject = await app();
    const { email, key, authenticator } = await withTotpAndPasskey(subject);
    const page = subject.browser();
    const options = await page.json("/login/passkey/options");
    const { challenge_id } = (await options.json()) as { challenge_id: string };
    const response = await authenticator.authenticate(challenge_id, { userVerified: false });
    const first = await page.json("/login/passkey", { challenge_id, response });
    expect(await first.json()).toEqual({ location: "/login/second_factor" });
    const done = await page.form("/login/second_factor", { code: subject.nextCode(key) });
    expect(done.status).toBe(303);
    expect(subject.signIns).toEqual([["passkey", "session", email]]);
    expect(await sessionFactors(subject, email)).toEqual(["passkey,totp"]);
  });
});

describe("a challenge stored before its first factor was kept", () => {
  it("is completed after the migration, and announced as a password", async () => {
    const before = accountMigrations.filter(
      (migration) => migration !== mfaChallengesFirstFactorMigration,
    );
    const subject = await app(before);
    const { email, key } = await withTotpAndPasskey(subject);
    // The row as the store wrote it before the migration: no first factor.
    const mfaToken = "a-challenge-from-before-the-first-factor-was-kept";
    const user = await subject.database.get<{ id: number }>(
      "SELECT id FROM users WHERE email = ?",
      [email],
    );
    await subject.database.run(
      "INSERT INTO mfa_challenges (digest, user_id, failures, expires_at) VALUES (?, ?, 0, ?)",
      [sha256Hex(mfaToken), user!.id, formatTimestamp(subject.clock.now + 60_000)],
    );
    expect(await applyMigrations(subject.database, accountMigrations)).toEqual([
      mfaChallengesFirstFactorMigration.id,
    ]);
    const done = await subject.call("/api/auth/token/mfa", {
      mfa_token: mfaToken,
      code: subject.nextCode(key),
    });
    expect(done.status).toBe(200);
    expect(subject.signIns).toEqual([["password", "token", email]]);
  });

  it("is completed on the page, and announced as a password", async () => {
    const subject = await app();
    const { email, key } = await withTotpAndPasskey(subject);
    const page = subject.browser();
    await page.form("/login", { email, password: PASSWORD });
    await subject.database.run("UPDATE mfa_challenges SET first_factor = NULL");
    const done = await page.form("/login/second_factor", { code: subject.nextCode(key) });
    expect(done.status).toBe(303);
    expect(subject.signIns).toEqual([["password", "session", email]]);
    expect(await sessionFactors(subject, email)).toEqual(["password,totp"]);
  });
});
