// Passkeys through the client against the running example app, with a software authenticator
// in place of the browser's (the WebAuthn ceremonies are injectable): one is added to a signed-in
// account, signs in on its own, and answers the second factor of a password sign-in.
import { totpCode } from "@tessera/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeTotpKey } from "../../../examples/app/test/support/totp-key.js";
import { SoftwareAuthenticator } from "../../accounts/test/software-authenticator.js";
import { createTesseraClient, TesseraError, type WebAuthnCeremonies } from "../src/index.js";
import {
  type AppUnderTest,
  clientFetch,
  newEmail,
  PASSWORD,
  type SentLog,
  startAppUnderTest,
} from "./support/app-under-test.js";

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(() => app?.stop());

/** The ceremonies of one software credential for the app's origin. */
function softwareWebAuthn(authenticator: SoftwareAuthenticator): WebAuthnCeremonies {
  return {
    startRegistration: (options) => authenticator.register(options.challenge),
    startAuthentication: (options) => authenticator.authenticate(options.challenge),
  };
}

function newClient(webAuthn: WebAuthnCeremonies, sent: SentLog = []) {
  return createTesseraClient({ baseUrl: app.server.url, fetch: clientFetch(sent), webAuthn });
}

describe("passkeys", () => {
  it("adds one to a signed-in account, then signs in with it alone", async () => {
    const authenticator = await SoftwareAuthenticator.create(app.origin);
    const webAuthn = softwareWebAuthn(authenticator);
    const client = newClient(webAuthn);
    const email = newEmail("passkey");
    await client.signUp({ email, password: PASSWORD });
    await client.signIn({ email, password: PASSWORD });

    const passkey = await client.registerPasskey("Test laptop");
    expect(passkey).toMatchObject({ id: expect.any(Number), name: "Test laptop" });
    const listed = await client.api.GET("/api/auth/passkeys");
    expect(listed.data?.map((each) => each.name)).toEqual(["Test laptop"]);
    await client.signOut();

    const sent: SentLog = [];
    const onItsOwn = newClient(webAuthn, sent);
    expect(await onItsOwn.signInWithPasskey()).toEqual({ signedIn: true });
    expect(sent).toEqual([
      "POST /api/auth/passkeys/login/options",
      "POST /api/auth/passkeys/login",
    ]);
    expect((await onItsOwn.api.GET("/api/auth/me")).data?.email).toBe(email);
    expect((await onItsOwn.tokens.get())?.refreshToken).toEqual(expect.any(String));
  });

  it("refuses a credential the service does not know", async () => {
    const stranger = await SoftwareAuthenticator.create(app.origin);
    const client = newClient(softwareWebAuthn(stranger));
    const error = await client.signInWithPasskey().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TesseraError);
    expect(error).toMatchObject({ status: 401, code: "invalid_credentials" });
    expect(await client.tokens.get()).toBeUndefined();
  });

  it("answers the second factor of a password sign-in", async () => {
    const authenticator = await SoftwareAuthenticator.create(app.origin);
    const webAuthn = softwareWebAuthn(authenticator);
    const client = newClient(webAuthn);
    const email = newEmail("passkey-mfa");
    await client.signUp({ email, password: PASSWORD });
    await client.signIn({ email, password: PASSWORD });
    await client.registerPasskey();
    // A TOTP makes the account one with a second factor; the passkey may answer it.
    const setup = await client.api.POST("/api/auth/mfa/totp", { body: { password: PASSWORD } });
    expect(setup.response.status).toBe(201);
    const confirmed = await client.api.POST("/api/auth/mfa/totp/confirm", {
      body: { code: totpCode(decodeTotpKey(setup.data!.secret), app.clock()) },
    });
    expect(confirmed.response.status).toBe(200);

    const sent: SentLog = [];
    const again = newClient(webAuthn, sent);
    const outcome = await again.signIn({ email, password: PASSWORD });
    if (outcome.signedIn) throw new Error("signed in without a second factor");
    expect(outcome.secondFactor.methods).toContain("passkey");
    await outcome.secondFactor.withPasskey();
    expect(sent).toEqual([
      "POST /api/auth/token",
      "POST /api/auth/token/mfa/options",
      "POST /api/auth/token/mfa",
    ]);
    expect((await again.api.GET("/api/auth/me")).data?.email).toBe(email);
  });
});
