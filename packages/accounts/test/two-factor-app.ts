import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { applyMigrations, type Migration } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, expect } from "vitest";
import { accountRoutes, type SignInEvent, totpCode } from "../src/index.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-two-factor-app-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The password of every user the helpers sign up. */
export const PASSWORD = "correct horse battery staple";
/** What `beforeSignIn` says to a user in `suspended`. */
export const SUSPENDED_MESSAGE = "This account is suspended.";
/** The app's origin. */
export const ORIGIN = "https://app.example";
const STEP = 30_000;

/**
 * `accountRoutes` on a SQLite file migrated with `migrations`, on the test's clock, with every
 * `onSignIn` event recorded as `[method, grant, email]` and every credential change in `changes`;
 * `beforeSignIn` refuses the addresses put in `suspended`.
 */
export async function twoFactorApp(migrations: readonly Migration[] = accountMigrations) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, migrations);
  const clock = { now: Date.UTC(2026, 10, 27, 9, 0, 10) };
  const mailer = new MemoryMailer();
  const signIns: [SignInEvent["method"], SignInEvent["grant"], string][] = [];
  /** Addresses `beforeSignIn` refuses, as a ban would. */
  const suspended = new Set<string>();
  /** `onPasswordChanged` and `onEmailChanged`, as `[hook, email, detail]`. */
  const changes: [string, string, unknown][] = [];
  const stores = sqlAccountStores(database);
  const accounts = accountRoutes({
    ...stores,
    mailer,
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    clock: () => clock.now,
    hooks: {
      beforeSignIn: ({ user }) =>
        suspended.has(user.email)
          ? { code: "account_suspended", message: SUSPENDED_MESSAGE }
          : undefined,
      onSignIn: ({ method, grant, user }) => {
        signIns.push([method, grant, user.email]);
      },
      onPasswordChanged: ({ user, signedOutOthers }) => {
        changes.push(["onPasswordChanged", user.email, { signedOutOthers }]);
      },
      onEmailChanged: ({ user, previousEmail }) => {
        changes.push(["onEmailChanged", user.email, { previousEmail }]);
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
  /** A JSON request (`POST` unless told), with the bearer token and other headers when given. */
  const call = (
    path: string,
    body: unknown,
    bearer?: string,
    method = "POST",
    headers: Record<string, string> = {},
  ) =>
    send(
      new Request(`${ORIGIN}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          ...headers,
        },
        ...(method === "GET" ? {} : { body: JSON.stringify(body) }),
      }),
    );
  /** A browser: its cookie jar, pages, same-origin form posts and the page scripts' JSON posts. */
  const browser = () => {
    let cookie = "";
    const request = async (path: string, init: { body: BodyInit; type: string } | undefined) => {
      const headers = { origin: ORIGIN, host: "app.example", cookie };
      const response = await send(
        new Request(`${ORIGIN}${path}`, {
          method: init ? "POST" : "GET",
          headers: init ? { ...headers, "content-type": init.type } : headers,
          ...(init ? { body: init.body } : {}),
        }),
      );
      const set = response.headers.getSetCookie()[0];
      if (set) cookie = set.split(";")[0]!;
      return response;
    };
    const post = (path: string, body: BodyInit, type: string) => request(path, { body, type });
    return {
      get: (path: string) => request(path, undefined),
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
  return {
    database,
    users: stores.users,
    mailer,
    signIns,
    suspended,
    changes,
    call,
    browser,
    nextCode,
    clock,
  };
}

/** An app of {@link twoFactorApp}. */
export type TwoFactorApp = Awaited<ReturnType<typeof twoFactorApp>>;

/** A user with TOTP on and a passkey; the sign-ins of the set-up are forgotten. */
export async function withTotpAndPasskey(subject: TwoFactorApp) {
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
export async function mfaTokenOf(answer: Response): Promise<string> {
  expect(answer.status).toBe(403);
  const body = (await answer.json()) as { error: { code: string }; mfa_token: string };
  expect(body.error.code).toBe("mfa_required");
  return body.mfa_token;
}

/** The factors the tracked sessions of the user with `email` were signed in with. */
export async function sessionFactors({ database }: TwoFactorApp, email: string) {
  const rows = await database.all<{ factors: string }>(
    "SELECT factors FROM user_sessions JOIN users ON users.id = user_sessions.user_id WHERE users.email = ?",
    [email],
  );
  return rows.map((row) => row.factors);
}

/** A bearer token of a full sign-in of a user of {@link withTotpAndPasskey}: the password, then the next TOTP code. */
export async function fullSignInToken(
  subject: TwoFactorApp,
  user: { readonly email: string; readonly key: Uint8Array },
): Promise<string> {
  const mfa_token = await mfaTokenOf(
    await subject.call("/api/auth/token", { email: user.email, password: PASSWORD }),
  );
  const granted = await subject.call("/api/auth/token/mfa", {
    mfa_token,
    code: subject.nextCode(user.key),
  });
  expect(granted.status).toBe(200);
  return ((await granted.json()) as { token: string }).token;
}

/**
 * A new user without a password (as a provider or links would make one), signed in with an
 * emailed code: the address and the token of that sign-in.
 */
export async function passwordlessSignIn(
  subject: TwoFactorApp,
): Promise<{ readonly email: string; readonly token: string }> {
  const email = `grace-${crypto.randomUUID()}@example.com`;
  const now = subject.clock.now;
  await subject.users.create({ email, passwordDigest: "", confirmedAt: now }, now);
  expect((await subject.call("/api/auth/email_code", { email })).status).toBe(202);
  const code = /^(\d{6})$/m.exec(subject.mailer.sent.at(-1)!.text)![1];
  const signedIn = await subject.call("/api/auth/token/email_code", { email, code });
  expect(signedIn.status).toBe(200);
  return { email, token: ((await signedIn.json()) as { token: string }).token };
}
