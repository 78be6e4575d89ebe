// The client against the running example app: sign-up, sign-in, the TOTP second factor and a
// backup code, refresh on a 401 of an expired token (once for calls refused together), and
// sign-out revoking the refresh token. Calls of `api` are typed by the generated AccountPaths.
import { totpCode } from "@tessera/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeTotpKey } from "../../../examples/app/test/support/totp-key.js";
import { startRecordingService } from "../../../test/support/recording-service.js";
import { createTesseraClient, type SignInOutcome, TesseraError } from "../src/index.js";
import {
  type AppUnderTest,
  clientFetch,
  newEmail,
  PASSWORD,
  type SentLog,
  startAppUnderTest,
} from "./support/app-under-test.js";

/** A bearer token's lifetime in the app, and a little more. */
const PAST_TOKEN_LIFETIME_MS = 3_600_000 + 60_000;

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(() => app?.stop());

function newClient(sent: SentLog = []) {
  return createTesseraClient({ baseUrl: app.server.url, fetch: clientFetch(sent) });
}

/** A new account, signed in on a new client. */
async function signedInClient(sent: SentLog = []) {
  const client = newClient(sent);
  const email = newEmail("accounts");
  await client.signUp({ email, password: PASSWORD });
  expect(await client.signIn({ email, password: PASSWORD })).toEqual({ signedIn: true });
  return { client, email };
}

/** The error a call threw. */
async function refusal(call: Promise<unknown>): Promise<TesseraError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TesseraError);
  return error as TesseraError;
}

describe("sign-up and sign-in", () => {
  it("signs up, signs in with a refresh token, and reads the account through `api`", async () => {
    const client = newClient();
    const email = newEmail("signup");
    const user = await client.signUp({ email, password: PASSWORD });
    expect(user).toMatchObject({ email, id: expect.any(Number) });
    expect(await client.tokens.get()).toBeUndefined();

    expect(await client.signIn({ email, password: PASSWORD })).toEqual({ signedIn: true });
    const held = await client.tokens.get();
    expect(held?.token).toMatch(/^ey/);
    expect(held?.refreshToken).toEqual(expect.any(String));

    const me = await client.api.GET("/api/auth/me");
    expect(me.response.status).toBe(200);
    expect(me.data?.email).toBe(email);
    expect(me.data?.id).toBe(user.id);
  });

  it("refuses a blank email and a short password with every field's messages", async () => {
    const error = await refusal(newClient().signUp({ email: " ", password: "short" }));
    expect(error.status).toBe(422);
    expect(error.code).toBe("validation_failed");
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(["email", "password"]);
  });

  it("refuses a wrong password as invalid_credentials, holding no token", async () => {
    const client = newClient();
    const email = newEmail("wrong");
    await client.signUp({ email, password: PASSWORD });
    const error = await refusal(client.signIn({ email, password: "not the password" }));
    expect([error.status, error.code]).toEqual([401, "invalid_credentials"]);
    expect(error.message).toBe("Unauthorized");
    expect(await client.tokens.get()).toBeUndefined();
  });

  it("without a token, `api` gets the service's 401 as its typed error", async () => {
    const me = await newClient().api.GET("/api/auth/me");
    expect(me.response.status).toBe(401);
    expect(me.error).toEqual({
      error: { code: "unauthenticated", message: "Unauthorized", status: 401 },
    });
  });
});

describe("the second factor", () => {
  it("after a password, takes a TOTP code, then a backup code", async () => {
    const { client, email } = await signedInClient();
    const setup = await client.api.POST("/api/auth/mfa/totp", { body: { password: PASSWORD } });
    expect(setup.response.status).toBe(201);
    const key = decodeTotpKey(setup.data!.secret);
    const confirmed = await client.api.POST("/api/auth/mfa/totp/confirm", {
      body: { code: totpCode(key, app.clock()) },
    });
    expect(confirmed.response.status).toBe(200);
    const backupCodes = confirmed.data!.backup_codes;
    expect(backupCodes).toHaveLength(10);

    // The code of the next step: the one used to confirm is spent.
    app.advance(30_000);
    const onAnotherDevice = newClient();
    const outcome = await onAnotherDevice.signIn({ email, password: PASSWORD });
    const step = secondFactorOf(outcome);
    expect(step.methods).toEqual(["totp", "backup_code"]);
    expect(await onAnotherDevice.tokens.get()).toBeUndefined();

    const wrong = await refusal(step.withCode("000000"));
    expect([wrong.status, wrong.code]).toEqual([401, "invalid_credentials"]);
    await step.withCode(totpCode(key, app.clock()));
    const me = await onAnotherDevice.api.GET("/api/auth/me");
    expect(me.data?.email).toBe(email);

    const third = newClient();
    await secondFactorOf(await third.signIn({ email, password: PASSWORD })).withCode(
      backupCodes[0]!,
    );
    expect((await third.api.GET("/api/auth/me")).data?.email).toBe(email);
  });
});

/** The second step of an outcome that must have one. */
function secondFactorOf(outcome: SignInOutcome) {
  if (outcome.signedIn) throw new Error("signed in without a second factor");
  return outcome.secondFactor;
}

describe("refresh", () => {
  it("refreshes an expired token once and sends the refused call again", async () => {
    const sent: SentLog = [];
    const { client, email } = await signedInClient(sent);
    const before = await client.tokens.get();
    app.advance(PAST_TOKEN_LIFETIME_MS);
    sent.length = 0;

    const me = await client.api.GET("/api/auth/me");
    expect(me.response.status).toBe(200);
    expect(me.data?.email).toBe(email);
    expect(sent).toEqual(["GET /api/auth/me", "POST /api/auth/token/refresh", "GET /api/auth/me"]);
    const after = await client.tokens.get();
    expect(after?.token).not.toBe(before?.token);
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
  });

  it("refreshes once for calls refused together, sending each again", async () => {
    const sent: SentLog = [];
    const { client } = await signedInClient(sent);
    const created = await client.api.POST("/api/auth/keys", { body: { name: "ci" } });
    expect(created.response.status).toBe(201);
    app.advance(PAST_TOKEN_LIFETIME_MS);
    sent.length = 0;

    const answers = await Promise.all([
      client.api.GET("/api/auth/me"),
      client.api.GET("/api/auth/keys"),
      client.api.GET("/api/auth/sessions"),
    ]);
    expect(answers.map((answer) => answer.response.status)).toEqual([200, 200, 200]);
    expect(sent.filter((line) => line === "POST /api/auth/token/refresh")).toHaveLength(1);
    expect(sent).toHaveLength(7);
    expect(answers[1].data?.map((key) => key.name)).toEqual(["ci"]);
  });

  it("gives the 401 and forgets the pair when the refresh token is refused too", async () => {
    const { client } = await signedInClient();
    const held = await client.tokens.get();
    // Another holder of the pair signs out: the family is revoked at the service.
    const other = createTesseraClient({ baseUrl: app.server.url, fetch: clientFetch() });
    await other.tokens.set(held!);
    await other.signOut();
    app.advance(PAST_TOKEN_LIFETIME_MS);

    const me = await client.api.GET("/api/auth/me");
    expect(me.response.status).toBe(401);
    expect(me.error?.error.code).toBe("unauthenticated");
    expect(await client.tokens.get()).toBeUndefined();
  });

  it("refresh() exchanges the pair now, and says false without a refresh token", async () => {
    const { client } = await signedInClient();
    const before = await client.tokens.get();
    expect(await client.refresh()).toBe(true);
    expect((await client.tokens.get())?.refreshToken).not.toBe(before?.refreshToken);
    expect((await client.api.GET("/api/auth/me")).response.status).toBe(200);
    expect(await newClient().refresh()).toBe(false);
  });
});

describe("the bearer token", () => {
  it("goes to the service's origin only, and never over an Authorization of the call's own", async () => {
    const { client } = await signedInClient();
    const elsewhere = await startRecordingService({ status: 200, body: "{}" });
    try {
      await client.fetch(new Request(`${elsewhere.url}/files/1`));
      expect(elsewhere.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await elsewhere.close();
    }
    const own = await client.fetch(
      new Request(`${app.server.url}/api/auth/me`, { headers: { authorization: "Bearer other" } }),
    );
    expect(own.status).toBe(401);
    const held = await client.fetch(new Request(`${app.server.url}/api/auth/me`));
    expect(held.status).toBe(200);
  });
});

describe("sign-out", () => {
  it("revokes the refresh token at the service and forgets the pair", async () => {
    const sent: SentLog = [];
    const { client } = await signedInClient(sent);
    const held = await client.tokens.get();
    await client.signOut();
    expect(sent.at(-1)).toBe("DELETE /api/auth/token/refresh");
    expect(await client.tokens.get()).toBeUndefined();

    // The revoked refresh token no longer renews anything.
    const again = createTesseraClient({ baseUrl: app.server.url, fetch: clientFetch() });
    await again.tokens.set(held!);
    expect(await again.refresh()).toBe(false);
    expect(await again.tokens.get()).toBeUndefined();
  });
});
