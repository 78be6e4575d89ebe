import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { applyMigrations, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { accountRoutes, PASSKEY_CHALLENGE_LIFETIME_MS, totpCode } from "../src/index.js";
import { jsonCaller } from "./json-caller.js";
import { SoftwareAuthenticator, tamperedSignature } from "./software-authenticator.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-passkeys-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PASSWORD = "correct horse battery staple";
const ORIGIN = "https://app.example";

/** `database` counting the statements sent through it (`statements.count`). */
function countingStatements(database: SqlDatabase) {
  const statements = { count: 0 };
  const counted = new Proxy(database, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (name !== "get" && name !== "all" && name !== "run") return value;
      return (...args: unknown[]) => {
        statements.count++;
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { counted, statements };
}

/** `accountRoutes` with passkeys and second factors on a SQLite file, on the test's clock. */
async function app() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  const { counted, statements } = countingStatements(database);
  const clock = { now: Date.UTC(2026, 10, 27, 9, 0, 0) };
  const accounts = accountRoutes({
    ...sqlAccountStores(counted),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    clock: () => clock.now,
  });
  const handle = routeRequests(accounts.routes);
  const clientAddress = `203.0.113.${Math.floor(Math.random() * 250)}`;
  const call = jsonCaller(handle, ORIGIN, clientAddress);
  return { call, database, clock, statements };
}

type App = Awaited<ReturnType<typeof app>>;

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function signedUp({ call }: App) {
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await call("POST", "/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  const token = await call("POST", "/api/auth/token", { email, password: PASSWORD });
  return { email, bearer: (await json<{ token: string }>(token)).token };
}

async function registrationChallenge({ call }: App, bearer: string) {
  const options = await call("POST", "/api/auth/passkeys/options", {}, bearer);
  expect(options.status).toBe(200);
  return (await json<{ challenge: string }>(options)).challenge;
}

/** A user with one passkey, registered through the routes. */
async function withPasskey(subject: App) {
  const user = await signedUp(subject);
  const authenticator = await SoftwareAuthenticator.create(ORIGIN);
  const response = await authenticator.register(await registrationChallenge(subject, user.bearer));
  const created = await subject.call(
    "POST",
    "/api/auth/passkeys",
    { name: "Laptop", response },
    user.bearer,
  );
  expect(created.status).toBe(201);
  return { ...user, authenticator, passkeyId: (await json<{ id: number }>(created)).id };
}

async function signInOptions({ call }: App) {
  const answer = await call("POST", "/api/auth/passkeys/login/options", {});
  expect(answer.status).toBe(200);
  return json<{ options: PublicKeyCredentialRequestOptionsJSON; challenge_id: string }>(answer);
}

/**
 * A token of a full sign-in (the password, then a TOTP code of the next step): what managing
 * factors needs once the user has a second factor.
 */
async function twoFactorBearer(subject: App, email: string, key: Uint8Array) {
  subject.clock.now += 30_000;
  const refused = await subject.call("POST", "/api/auth/token", { email, password: PASSWORD });
  const { mfa_token } = await json<{ mfa_token: string }>(refused);
  const code = totpCode(key, subject.clock.now);
  const granted = await subject.call("POST", "/api/auth/token/mfa", { mfa_token, code });
  expect(granted.status).toBe(200);
  return (await json<{ token: string }>(granted)).token;
}

async function expectRefused(response: Response, status = 401) {
  expect(response.status).toBe(status);
  const { error } = await json<{ error: { code: string } }>(response);
  expect(error.code).toBe(status === 401 ? "invalid_credentials" : "passkey_invalid");
}

describe("adding a passkey", () => {
  it("offers creation options, stores the passkey, lists it, and excludes it next time", async () => {
    const subject = await app();
    const { bearer } = await signedUp(subject);
    const options = await subject.call("POST", "/api/auth/passkeys/options", {}, bearer);
    const offered = await json<Record<string, unknown>>(options);
    expect(offered).toMatchObject({
      rp: { id: "app.example", name: "Tessera" },
      excludeCredentials: [],
      attestation: "none",
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    });
    const authenticator = await SoftwareAuthenticator.create(ORIGIN);
    const response = await authenticator.register(offered.challenge as string);
    const created = await subject.call(
      "POST",
      "/api/auth/passkeys",
      { name: "  Work laptop ", response },
      bearer,
    );
    expect(created.status).toBe(201);
    const passkey = await json<{ id: number; name: string; created_at: string }>(created);
    expect(passkey).toEqual({
      id: expect.any(Number),
      name: "Work laptop",
      created_at: "2026-11-27T09:00:00.000Z",
    });
    const listed = await subject.call("GET", "/api/auth/passkeys", undefined, bearer);
    expect(await listed.json()).toEqual([{ ...passkey, last_used_at: null }]);
    const next = await json<{ excludeCredentials: { id: string }[] }>(
      await subject.call("POST", "/api/auth/passkeys/options", {}, bearer),
    );
    expect(next.excludeCredentials.map(({ id }) => id)).toEqual([authenticator.credentialId]);
    const me = await subject.call("GET", "/api/auth/me", undefined, bearer);
    expect((await json<{ mfa: unknown }>(me)).mfa).toEqual({ totp: false, passkeys: 1 });
    // The challenge was stored as its digest only.
    const stored = await subject.database.all<{ digest: string }>(
      "SELECT digest FROM passkey_challenges",
    );
    expect(stored.map(({ digest }) => digest)).not.toContain(offered.challenge);
  });

  it("refuses a replayed response, another user's challenge, an expired one, the wrong origin", async () => {
    const subject = await app();
    const ada = await signedUp(subject);
    const bob = await signedUp(subject);
    const authenticator = await SoftwareAuthenticator.create(ORIGIN);
    const register = (response: unknown, bearer = ada.bearer) =>
      subject.call("POST", "/api/auth/passkeys", { response }, bearer);

    const response = await authenticator.register(await registrationChallenge(subject, ada.bearer));
    expect((await register(response)).status).toBe(201);
    await expectRefused(await register(response), 400);

    const bobsChallenge = await registrationChallenge(subject, bob.bearer);
    const other = await SoftwareAuthenticator.create(ORIGIN);
    await expectRefused(await register(await other.register(bobsChallenge)), 400);
    // Refused for Ada, Bob's challenge is still his.
    expect((await register(await other.register(bobsChallenge), bob.bearer)).status).toBe(201);

    const late = await registrationChallenge(subject, ada.bearer);
    subject.clock.now += PASSKEY_CHALLENGE_LIFETIME_MS;
    const third = await SoftwareAuthenticator.create(ORIGIN);
    await expectRefused(await register(await third.register(late)), 400);

    const elsewhere = await registrationChallenge(subject, ada.bearer);
    const phished = await third.register(elsewhere, { origin: "https://app.example.evil" });
    await expectRefused(await register(phished), 400);
    const wrongRp = await third.register(await registrationChallenge(subject, ada.bearer), {
      rpId: "example",
    });
    await expectRefused(await register(wrongRp), 400);

    const listed = await json<unknown[]>(
      await subject.call("GET", "/api/auth/passkeys", undefined, ada.bearer),
    );
    expect(listed).toHaveLength(1);
  });

  it("refuses a credential already registered, a long name and a body without a response", async () => {
    const subject = await app();
    const { bearer, authenticator } = await withPasskey(subject);
    const bob = await signedUp(subject);
    const again = await authenticator.register(await registrationChallenge(subject, bob.bearer));
    await expectRefused(
      await subject.call("POST", "/api/auth/passkeys", { response: again }, bob.bearer),
      400,
    );
    const long = await subject.call(
      "POST",
      "/api/auth/passkeys",
      { name: "x".repeat(101), response: {} },
      bearer,
    );
    expect(long.status).toBe(422);
    expect((await json<{ error: { fields: unknown } }>(long)).error.fields).toEqual({
      name: ["is too long (maximum is 100 characters)"],
    });
    const missing = await subject.call("POST", "/api/auth/passkeys", { name: "x" }, bearer);
    expect(missing.status).toBe(400);
    await expectRefused(
      await subject.call("POST", "/api/auth/passkeys", { response: "garbage" }, bearer),
      400,
    );
    expect((await subject.call("POST", "/api/auth/passkeys/options", {})).status).toBe(401);
  });

  it("removes a passkey of its own user only", async () => {
    const subject = await app();
    const { bearer, passkeyId } = await withPasskey(subject);
    const bob = await signedUp(subject);
    const path = `/api/auth/passkeys/${passkeyId}`;
    expect((await subject.call("DELETE", path, undefined, bob.bearer)).status).toBe(404);
    expect((await subject.call("DELETE", path, undefined, bearer)).status).toBe(204);
    expect((await subject.call("DELETE", path, undefined, bearer)).status).toBe(404);
    expect(
      await (await subject.call("GET", "/api/auth/passkeys", undefined, bearer)).json(),
    ).toEqual([]);
  });
});

describe("signing in with a passkey alone", () => {
  it("answers the token body, and the passkey's last use and counter move on", async () => {
    const subject = await app();
    const { bearer, authenticator } = await withPasskey(subject);
    const { options, challenge_id } = await signInOptions(subject);
    expect(challenge_id).toBe(options.challenge);
    expect(options).toMatchObject({ rpId: "app.example", userVerification: "preferred" });
    expect(options.allowCredentials ?? []).toEqual([]);
    subject.clock.now += 60_000;
    const response = await authenticator.authenticate(options.challenge);
    const signedIn = await subject.call("POST", "/api/auth/passkeys/login", {
      challenge_id,
      response,
    });
    expect(signedIn.status).toBe(200);
    const token = await json<{ token: string; token_type: string }>(signedIn);
    expect(token.token_type).toBe("Bearer");
    const me = await subject.call("GET", "/api/auth/me", undefined, token.token);
    expect(me.status).toBe(200);
    const [listed] = await json<{ last_used_at: string }[]>(
      await subject.call("GET", "/api/auth/passkeys", undefined, bearer),
    );
    expect(listed?.last_used_at).toBe("2026-11-27T09:01:00.000Z");
    const row = await subject.database.get<{ counter: number }>("SELECT counter FROM passkeys");
    expect(row?.counter).toBe(1);
  });

  it("refuses a replay, another challenge, a tampered signature, a counter gone back", async () => {
    const subject = await app();
    const { authenticator } = await withPasskey(subject);
    const login = (challenge_id: string, response: unknown) =>
      subject.call("POST", "/api/auth/passkeys/login", { challenge_id, response });

    const first = await signInOptions(subject);
    const response = await authenticator.authenticate(first.challenge_id);
    expect((await login(first.challenge_id, response)).status).toBe(200);
    await expectRefused(await login(first.challenge_id, response));
    // The same answer handed in with a fresh challenge's id.
    const fresh = await signInOptions(subject);
    await expectRefused(await login(fresh.challenge_id, response));
    // A fresh answer handed in with another live challenge's id.
    const [asked, other] = [await signInOptions(subject), await signInOptions(subject)];
    const answered = await authenticator.authenticate(asked.challenge_id);
    await expectRefused(await login(other.challenge_id, answered));

    subject.clock.now += 60_000; // a new minute of the rate limit
    const tampered = await signInOptions(subject);
    const signed = await authenticator.authenticate(tampered.challenge_id);
    await expectRefused(await login(tampered.challenge_id, tamperedSignature(signed)));

    const counted = await signInOptions(subject);
    const accepted = await authenticator.authenticate(counted.challenge_id, { counter: 5 });
    expect((await login(counted.challenge_id, accepted)).status).toBe(200);
    // A cloned authenticator: its counter is behind the one last seen, or equal to it.
    for (const counter of [4, 5]) {
      const cloned = await signInOptions(subject);
      const answer = await authenticator.authenticate(cloned.challenge_id, { counter });
      await expectRefused(await login(cloned.challenge_id, answer));
    }
    subject.clock.now += 60_000;
    const good = await signInOptions(subject);
    expect(
      (await login(good.challenge_id, await authenticator.authenticate(good.challenge_id))).status,
    ).toBe(200);
  });

  it("refuses an expired challenge, a removed passkey, a wrong origin or rpId, another purpose's challenge", async () => {
    const subject = await app();
    const { bearer, authenticator, passkeyId } = await withPasskey(subject);
    const login = (challenge_id: string, response: unknown) =>
      subject.call("POST", "/api/auth/passkeys/login", { challenge_id, response });

    const expiring = await signInOptions(subject);
    subject.clock.now += PASSKEY_CHALLENGE_LIFETIME_MS;
    await expectRefused(
      await login(expiring.challenge_id, await authenticator.authenticate(expiring.challenge_id)),
    );
    for (const claims of [{ origin: "https://evil.example" }, { rpId: "evil.example" }]) {
      const options = await signInOptions(subject);
      const answer = await authenticator.authenticate(options.challenge_id, claims);
      await expectRefused(await login(options.challenge_id, answer));
    }
    // A registration challenge does not sign anyone in.
    const registration = await registrationChallenge(subject, bearer);
    await expectRefused(await login(registration, await authenticator.authenticate(registration)));
    await expectRefused(await login("x", { id: "y" }));
    expect((await subject.call("POST", "/api/auth/passkeys/login", {})).status).toBe(400);

    expect(
      (await subject.call("DELETE", `/api/auth/passkeys/${passkeyId}`, undefined, bearer)).status,
    ).toBe(204);
    const removed = await signInOptions(subject);
    await expectRefused(
      await login(removed.challenge_id, await authenticator.authenticate(removed.challenge_id)),
    );
  });

  it("limits sign-in attempts per client", async () => {
    const subject = await app();
    const answers = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      answers.push((await subject.call("POST", "/api/auth/passkeys/login/options", {})).status);
    }
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(answers[10]).toBe(429);
  });
});

describe("a passkey as the second factor after a password", () => {
  /** A user with TOTP on and a passkey: the password now asks for a second factor. */
  async function withBoth(subject: App) {
    const user = await withPasskey(subject);
    const setup = await subject.call(
      "POST",
      "/api/auth/mfa/totp",
      { password: PASSWORD },
      user.bearer,
    );
    const key = decodeBase32IgnorePadding((await json<{ secret: string }>(setup)).secret);
    const code = totpCode(key, subject.clock.now);
    const confirmed = await subject.call(
      "POST",
      "/api/auth/mfa/totp/confirm",
      { code },
      user.bearer,
    );
    expect(confirmed.status).toBe(200);
    return { ...user, bearer: await twoFactorBearer(subject, user.email, key) };
  }

  async function mfaToken({ call }: App, email: string) {
    const refused = await call("POST", "/api/auth/token", { email, password: PASSWORD });
    expect(refused.status).toBe(403);
    return json<{ mfa_token: string; methods: string[] }>(refused);
  }

  async function passkeyChallenge({ call }: App, mfa_token: string) {
    const options = await call("POST", "/api/auth/token/mfa/options", { mfa_token });
    expect(options.status).toBe(200);
    return json<PublicKeyCredentialRequestOptionsJSON>(options);
  }

  it("offers the user's passkeys and signs in with one", async () => {
    const subject = await app();
    const { email, authenticator, bearer } = await withBoth(subject);
    const me = await subject.call("GET", "/api/auth/me", undefined, bearer);
    expect((await json<{ mfa: unknown }>(me)).mfa).toEqual({ totp: true, passkeys: 1 });
    const { mfa_token, methods } = await mfaToken(subject, email);
    expect(methods).toEqual(["totp", "backup_code", "passkey"]);
    const options = await passkeyChallenge(subject, mfa_token);
    expect(options.allowCredentials?.map(({ id }) => id)).toEqual([authenticator.credentialId]);
    const passkey = await authenticator.authenticate(options.challenge);
    const signedIn = await subject.call("POST", "/api/auth/token/mfa", { mfa_token, passkey });
    expect(signedIn.status).toBe(200);
    expect((await json<{ token_type: string }>(signedIn)).token_type).toBe("Bearer");
    // The mfa_token is used up.
    await expectRefused(await subject.call("POST", "/api/auth/token/mfa/options", { mfa_token }));
  });

  it("refuses an answer for another mfa_token, another user's passkey, a replay", async () => {
    const subject = await app();
    const ada = await withBoth(subject);
    const bob = await withBoth(subject);
    const adaFirst = await mfaToken(subject, ada.email);
    const adaSecond = await mfaToken(subject, ada.email);
    const options = await passkeyChallenge(subject, adaFirst.mfa_token);
    const passkey = await ada.authenticator.authenticate(options.challenge);
    // Ada's answer to her first sign-in does not complete her second.
    await expectRefused(
      await subject.call("POST", "/api/auth/token/mfa", {
        mfa_token: adaSecond.mfa_token,
        passkey,
      }),
    );
    // Bob's passkey does not answer Ada's sign-in, even for a challenge of hers.
    const forAda = await passkeyChallenge(subject, adaSecond.mfa_token);
    const bobsAnswer = await bob.authenticator.authenticate(forAda.challenge);
    await expectRefused(
      await subject.call("POST", "/api/auth/token/mfa", {
        mfa_token: adaSecond.mfa_token,
        passkey: bobsAnswer,
      }),
    );
    // A passkey answer to Bob's own sign-in cannot come with Ada's mfa_token either.
    const bobs = await mfaToken(subject, bob.email);
    const forBob = await passkeyChallenge(subject, bobs.mfa_token);
    const bobsOwn = await bob.authenticator.authenticate(forBob.challenge);
    await expectRefused(
      await subject.call("POST", "/api/auth/token/mfa", {
        mfa_token: adaFirst.mfa_token,
        passkey: bobsOwn,
      }),
    );
    expect(
      (
        await subject.call("POST", "/api/auth/token/mfa", {
          mfa_token: bobs.mfa_token,
          passkey: bobsOwn,
        })
      ).status,
    ).toBe(200);
    await expectRefused(
      await subject.call("POST", "/api/auth/token/mfa", {
        mfa_token: bobs.mfa_token,
        passkey: bobsOwn,
      }),
    );
    await expectRefused(
      await subject.call("POST", "/api/auth/token/mfa/options", { mfa_token: "unknown" }),
    );
  });

  it("answers 409 for the options of a user without a passkey", async () => {
    const subject = await app();
    const user = await withBoth(subject);
    await subject.call("DELETE", `/api/auth/passkeys/${user.passkeyId}`, undefined, user.bearer);
    const { mfa_token, methods } = await mfaToken(subject, user.email);
    expect(methods).toEqual(["totp", "backup_code"]);
    const options = await subject.call("POST", "/api/auth/token/mfa/options", { mfa_token });
    expect(options.status).toBe(409);
    expect((await json<{ error: { message: string } }>(options)).error.message).toBe(
      "This account has no passkey.",
    );
  });

  it("asks a passkey that did not verify its user for the second factor", async () => {
    const subject = await app();
    const { authenticator } = await withBoth(subject);
    const { challenge_id } = await signInOptions(subject);
    const response = await authenticator.authenticate(challenge_id, { userVerified: false });
    const answer = await subject.call("POST", "/api/auth/passkeys/login", {
      challenge_id,
      response,
    });
    expect(answer.status).toBe(403);
    const body = await json<{ error: { code: string }; mfa_token: string; methods: string[] }>(
      answer,
    );
    expect(body.error.code).toBe("mfa_required");
    // A factor never answers for itself: the passkey that signed in is not offered again, and
    // no passkey challenge is handed out for this step.
    expect(body.methods).toEqual(["totp", "backup_code"]);
    const options = await subject.call("POST", "/api/auth/token/mfa/options", {
      mfa_token: body.mfa_token,
    });
    expect(options.status).toBe(409);
  });
});

describe("GET /api/auth/me's second factors", () => {
  async function me(subject: App, bearer: string) {
    const answer = await subject.call("GET", "/api/auth/me", undefined, bearer);
    expect(answer.status).toBe(200);
    return (await json<{ mfa: unknown }>(answer)).mfa;
  }

  it("follow TOTP and passkeys at once: enrolled, confirmed, added, removed, turned off", async () => {
    const subject = await app();
    const { email, bearer: oneFactor, passkeyId } = await withPasskey(subject);
    let bearer = oneFactor;
    expect(await me(subject, bearer)).toEqual({ totp: false, passkeys: 1 });
    const setup = await subject.call("POST", "/api/auth/mfa/totp", { password: PASSWORD }, bearer);
    // A pending enrolment is not a second factor yet.
    expect(await me(subject, bearer)).toEqual({ totp: false, passkeys: 1 });
    const key = decodeBase32IgnorePadding((await json<{ secret: string }>(setup)).secret);
    const code = totpCode(key, subject.clock.now);
    await subject.call("POST", "/api/auth/mfa/totp/confirm", { code }, bearer);
    expect(await me(subject, bearer)).toEqual({ totp: true, passkeys: 1 });
    bearer = await twoFactorBearer(subject, email, key);
    await subject.call("DELETE", `/api/auth/passkeys/${passkeyId}`, undefined, bearer);
    expect(await me(subject, bearer)).toEqual({ totp: true, passkeys: 0 });
    await subject.call("DELETE", "/api/auth/mfa/totp", { password: PASSWORD }, bearer);
    expect(await me(subject, bearer)).toEqual({ totp: false, passkeys: 0 });
  });

  it("are read in one statement besides the bearer's user", async () => {
    const subject = await app();
    const { bearer } = await withPasskey(subject);
    const before = subject.statements.count;
    await me(subject, bearer);
    // The JWT's user, then the TOTP and the passkey count together.
    expect(subject.statements.count - before).toBe(2);
  });
});

describe("the passkey routes in a locale", () => {
  it("write the locale's language headers into their answers and refusals", async () => {
    const subject = await app();
    const sendInFrench = (method: string, path: string, body?: unknown, bearer?: string) =>
      subject.call(method, path, body, bearer, FRENCH);
    const { bearer } = await signedUp(subject);
    const options = await sendInFrench("POST", "/api/auth/passkeys/options", {}, bearer);
    expect(languageOf(options)).toEqual(inFrench(200));
    const authenticator = await SoftwareAuthenticator.create(ORIGIN);
    const response = await authenticator.register(
      (await json<{ challenge: string }>(options)).challenge,
    );
    const created = await sendInFrench("POST", "/api/auth/passkeys", { response }, bearer);
    expect(languageOf(created)).toEqual(inFrench(201));
    const listed = await sendInFrench("GET", "/api/auth/passkeys", undefined, bearer);
    expect(languageOf(listed)).toEqual(inFrench(200));
    const signInOptions = await sendInFrench("POST", "/api/auth/passkeys/login/options", {});
    expect(languageOf(signInOptions)).toEqual(inFrench(200));
    const refused = await sendInFrench("POST", "/api/auth/passkeys/login", {
      challenge_id: "none",
    });
    expect(languageOf(refused)).toEqual(inFrench(401));
    const missing = await sendInFrench("DELETE", "/api/auth/passkeys/999", undefined, bearer);
    expect(languageOf(missing)).toEqual(inFrench(404));
  });
});
