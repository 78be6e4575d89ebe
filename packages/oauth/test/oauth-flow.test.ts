import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { oauthMessages } from "../src/index.js";
import { Browser } from "./browser.js";
import { type OAuthTestApp, startOAuthTestApp, T0_TEXT } from "./oauth-test-app.js";

const PASSWORD_DIGEST = `pbkdf2_sha256$100000$${"A".repeat(22)}$${"B".repeat(43)}`;
const SIGNED_IN = { kind: "notice", message: "Signed in." };
const alert = (message: string) => ({ kind: "alert", message });

let app: OAuthTestApp;
beforeAll(async () => {
  app = await startOAuthTestApp();
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  app.provider.accounts.set("ada-sub", { email: "Ada@Example.com", email_verified: true });
});

/** A whole sign-in as `accountId` in a new browser. */
async function signInAnew(accountId: string) {
  const browser = new Browser();
  return app.finish(browser, await app.callbackUrl(browser, accountId));
}

/** A user created through the user store, as sign-up would have. */
async function existingUser(email: string, confirmed: boolean) {
  const created = await app.users.create(
    {
      email,
      passwordDigest: PASSWORD_DIGEST,
      confirmedAt: confirmed ? Date.UTC(2024, 5, 1, 10) : null,
    },
    Date.UTC(2024, 5, 1, 10),
  );
  if (!created.ok) throw new Error("the email is free");
  return created.value;
}

describe("POST /auth/{provider}", () => {
  it("redirects to the provider's authorization endpoint with state and an S256 challenge", async () => {
    const { response, authorizationUrl } = await app.start(new Browser());
    expect(response.status).toBe(303);
    const url = new URL(authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${app.provider.issuer}/auth`);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toEqual({
      response_type: "code",
      client_id: "tessera-app_web-client",
      // From appUrl's origin (its path is not used), never from the request.
      redirect_uri: `${app.origin}/auth/testidp/callback`,
      scope: "openid email",
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: "S256",
    });
    // The verifier stays in the encrypted session; only its SHA-256 travels.
    expect(query.code_challenge).not.toBe(query.state);
  });

  it("refuses with an alert when the provider cannot be reached, and retries discovery later", async () => {
    app.failNextProviderRequests(1);
    const browser = new Browser();
    const failed = await browser.submit(`${app.origin}/auth/testidp`);
    expect(failed.status).toBe(303);
    expect(failed.headers.get("location")).toBe("/login");
    expect(app.providerErrors).toEqual(["testidp: fetch failed: the network is down"]);
    const page = (await (await browser.request(`${app.origin}/login`)).json()) as unknown;
    expect(page).toEqual({
      userId: null,
      flashes: [alert("Signing in with Test IdP failed. Please try again.")],
    });

    const { response } = await app.start(browser);
    expect(response.headers.get("location")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?/);
    expect(app.outbound).toEqual([
      "GET /.well-known/openid-configuration",
      "GET /.well-known/openid-configuration",
    ]);
  });

  it("answers 404 for a provider that is not configured, on both routes", async () => {
    const browser = new Browser();
    expect((await browser.submit(`${app.origin}/auth/gitlab`)).status).toBe(404);
    const callback = await browser.request(`${app.origin}/auth/gitlab/callback?code=x&state=y`);
    expect(callback.status).toBe(404);
    expect(await callback.text()).toBe("Not found");
  });
});

describe("GET /auth/{provider}/callback, signing in", () => {
  it("creates a confirmed user without a password for a new verified email, and links it", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    expect(new URL(callbackUrl).pathname).toBe("/auth/testidp/callback");

    const outcome = await app.finish(browser, callbackUrl);
    expect(outcome).toEqual({
      status: 303,
      location: "/",
      state: { userId: 1, flashes: [SIGNED_IN] },
    });
    expect(await app.userRows()).toEqual([
      { id: 1, email: "ada@example.com", password_digest: "", confirmed_at: T0_TEXT },
    ]);
    expect(await app.identityRows()).toEqual([
      { user_id: 1, provider: "testidp", subject: "ada-sub", email: "ada@example.com" },
    ]);
    // The sign-in recorded this browser as a device of the user.
    expect(await app.deviceUserIds()).toEqual([1]);
    expect(await app.deviceFactors()).toEqual(["oauth"]);
    expect(app.providerErrors).toEqual([]);
    // The accounts' hooks hear of the provider sign-up and its sign-in.
    expect(app.announced).toEqual([
      ["onSignUp", "oauth", 1],
      ["onSignIn", "oauth", 1],
    ]);
  });

  it("asks the accounts' beforeSignIn, like every way in, and signs a suspended user in nowhere", async () => {
    expect((await signInAnew("ada-sub")).state).toEqual({ userId: 1, flashes: [SIGNED_IN] });
    const devices = (await app.deviceUserIds()).length;
    app.suspended.add("ada@example.com");
    try {
      const outcome = await signInAnew("ada-sub");
      expect(outcome).toEqual({
        status: 303,
        location: "/login",
        state: {
          userId: null,
          flashes: [{ kind: "alert", message: "This account is suspended." }],
        },
      });
      expect(await app.deviceUserIds()).toHaveLength(devices);
    } finally {
      app.suspended.delete("ada@example.com");
    }
  });

  it("signs in the user linked to the provider account, even after its email changed", async () => {
    expect((await signInAnew("ada-sub")).state).toEqual({ userId: 1, flashes: [SIGNED_IN] });
    app.provider.accounts.set("ada-sub", { email: "countess@example.com", email_verified: true });

    const outcome = await signInAnew("ada-sub");
    expect(outcome.state).toEqual({ userId: 1, flashes: [SIGNED_IN] });
    expect((await app.userRows()).map((row) => row.email)).toEqual(["ada@example.com"]);
    expect(await app.identityRows()).toHaveLength(1);
    // A returning user signs in without signing up again.
    expect(app.announced).toEqual([
      ["onSignUp", "oauth", 1],
      ["onSignIn", "oauth", 1],
      ["onSignIn", "oauth", 1],
    ]);
  });

  it("links the existing user with the same verified email, keeping their password", async () => {
    const ada = await existingUser("ada@example.com", true);
    const browser = new Browser();
    const outcome = await app.finish(browser, await app.callbackUrl(browser, "ada-sub"));
    expect(outcome.state).toEqual({ userId: ada.id, flashes: [SIGNED_IN] });
    expect(await app.userRows()).toEqual([
      {
        id: ada.id,
        email: "ada@example.com",
        password_digest: PASSWORD_DIGEST,
        confirmed_at: "2024-06-01 10:00:00",
      },
    ]);
    expect(await app.identityRows()).toEqual([
      { user_id: ada.id, provider: "testidp", subject: "ada-sub", email: "ada@example.com" },
    ]);
  });

  it("confirms an unconfirmed user it links, and removes the password set before confirmation", async () => {
    // Pre-account hijacking: whoever signed up with this address never proved they own it.
    const ada = await existingUser("ada@example.com", false);
    const browser = new Browser();
    const outcome = await app.finish(browser, await app.callbackUrl(browser, "ada-sub"));
    expect(outcome.state).toEqual({
      userId: ada.id,
      flashes: [
        SIGNED_IN,
        { kind: "notice", message: oauthMessages.english["oauth.password_removed"] },
      ],
    });
    expect(await app.userRows()).toEqual([
      { id: ada.id, email: "ada@example.com", password_digest: "", confirmed_at: T0_TEXT },
    ]);
  });

  it("returns to the page remembered before sign-in", async () => {
    const browser = new Browser();
    const refused = await browser.request(`${app.origin}/private`);
    expect(refused.headers.get("location")).toBe("/login");
    const outcome = await app.finish(browser, await app.callbackUrl(browser, "ada-sub"));
    expect(outcome.location).toBe("/private");
  });

  it("sends the client credentials in the token request's body when the provider lists client_secret_post", async () => {
    expect((await signInAnew("ada-sub")).state).toEqual({ userId: 1, flashes: [SIGNED_IN] });
    expect(app.tokenRequests).toHaveLength(1);
    const [request] = app.tokenRequests;
    // Not HTTP Basic, whose percent-encoding of `-` and `_` some providers refuse.
    expect(request!.authorization).toBeNull();
    expect(request!.body.get("client_id")).toBe("tessera-app_web-client");
    expect(request!.body.get("client_secret")).toBe(app.provider.clientSecret);
  });

  it("sends the provider 2 requests per sign-in, and fetches the discovery document once", async () => {
    await signInAnew("ada-sub");
    await signInAnew("ada-sub");
    expect(app.outbound).toEqual([
      "GET /.well-known/openid-configuration",
      "POST /token",
      "GET /me",
      "POST /token",
      "GET /me",
    ]);
  });

  it("makes one user and one link when two sign-ins of a new provider account race", async () => {
    const first = new Browser();
    const second = new Browser();
    const urls = [
      await app.callbackUrl(first, "ada-sub"),
      await app.callbackUrl(second, "ada-sub"),
    ];
    const outcomes = await Promise.all([app.finish(first, urls[0]!), app.finish(second, urls[1]!)]);
    expect(outcomes.map((outcome) => outcome.state)).toEqual([
      { userId: 1, flashes: [SIGNED_IN] },
      { userId: 1, flashes: [SIGNED_IN] },
    ]);
    expect(await app.userRows()).toHaveLength(1);
    expect(await app.identityRows()).toHaveLength(1);
  });

  it("signs in at most once when one callback is sent twice at once with the same cookie", async () => {
    // The state is in the cookie, so both requests hold it; the provider accepts the code once
    // (oidc-provider, seeing it reused, also revokes the first token: often neither signs in).
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    const outcomes = await Promise.all([
      app.finish(browser, callbackUrl),
      app.finish(browser, callbackUrl),
    ]);
    const signedIn = outcomes.filter((outcome) => outcome.location === "/");
    expect(signedIn.length).toBeLessThanOrEqual(1);
    expect(outcomes.filter((outcome) => outcome.location === "/login")).toHaveLength(
      2 - signedIn.length,
    );
    expect((await app.userRows()).length).toBe(signedIn.length);
    expect((await app.identityRows()).length).toBe(signedIn.length);
  });

  it("lets a user without a password delete the account by typing the email", async () => {
    const browser = new Browser();
    await app.finish(browser, await app.callbackUrl(browser, "ada-sub"));
    const wrong = await browser.submit(`${app.origin}/account/delete`, {
      email: "eve@example.com",
    });
    expect(wrong.status).toBe(422);
    expect(await app.userRows()).toHaveLength(1);

    const deleted = await browser.submit(`${app.origin}/account/delete`, {
      email: " ADA@example.com ",
    });
    expect(deleted.status).toBe(303);
    expect(await app.userRows()).toEqual([]);
    expect(app.announced.at(-1)).toEqual(["onUserDeleted", undefined, 1]);
    // The identity went with the user (ON DELETE CASCADE).
    expect(await app.identityRows()).toEqual([]);
  });
});

describe("GET /auth/{provider}/callback, refusing", () => {
  /** Runs a refused callback and checks nothing about accounts changed. */
  async function expectRefusal(browser: Browser, callbackUrl: string, message: string) {
    const usersBefore = await app.userRows();
    const identitiesBefore = await app.identityRows();
    const outcome = await app.finish(browser, callbackUrl);
    expect(outcome).toEqual({
      status: 303,
      location: "/login",
      state: { userId: null, flashes: [alert(message)] },
    });
    expect(await app.userRows()).toEqual(usersBefore);
    expect(await app.identityRows()).toEqual(identitiesBefore);
    expect(await app.deviceUserIds()).toEqual([]);
  }

  function withQuery(url: string, change: (query: URLSearchParams) => void): string {
    const changed = new URL(url);
    change(changed.searchParams);
    return changed.href;
  }

  it("refuses a state that does not match, and the real state is spent with it", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    const forged = withQuery(callbackUrl, (query) => query.set("state", "forged-state"));
    await expectRefusal(browser, forged, oauthMessages.english["oauth.state_invalid"]);
    await expectRefusal(browser, callbackUrl, oauthMessages.english["oauth.state_invalid"]);
    // Only the discovery of POST /auth/testidp: no code was ever exchanged.
    expect(app.outbound).toEqual(["GET /.well-known/openid-configuration"]);
  });

  it("refuses a callback without a state", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    await expectRefusal(
      browser,
      withQuery(callbackUrl, (query) => query.delete("state")),
      oauthMessages.english["oauth.state_invalid"],
    );
  });

  it("refuses a replayed callback after a successful sign-in", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    await app.finish(browser, callbackUrl);
    const usersBefore = await app.userRows();
    const replay = await app.finish(browser, callbackUrl);
    // Still signed in from before; the replay itself signs nobody in and changes nothing.
    expect(replay).toEqual({
      status: 303,
      location: "/login",
      state: { userId: 1, flashes: [alert(oauthMessages.english["oauth.state_invalid"])] },
    });
    expect(await app.userRows()).toEqual(usersBefore);
    expect(await app.deviceUserIds()).toHaveLength(1);
  });

  it("refuses a callback carried to another browser, which never started the flow", async () => {
    const callbackUrl = await app.callbackUrl(new Browser(), "ada-sub");
    await expectRefusal(new Browser(), callbackUrl, oauthMessages.english["oauth.state_invalid"]);
  });

  it("refuses a flow started for one provider and returning to another's callback", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    const elsewhere = callbackUrl.replace("/auth/testidp/", "/auth/otheridp/");
    await expectRefusal(browser, elsewhere, oauthMessages.english["oauth.state_invalid"]);
  });

  it("refuses a callback without a code", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    const withoutCode = withQuery(callbackUrl, (query) => query.delete("code"));
    await expectRefusal(
      browser,
      withoutCode,
      "Test IdP did not send a sign-in code. Please try again.",
    );
  });

  it("refuses when the user cancels at the provider (error=access_denied)", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub", { cancel: true });
    expect(new URL(callbackUrl).searchParams.get("error")).toBe("access_denied");
    await expectRefusal(browser, callbackUrl, "Signing in with Test IdP was cancelled.");
    expect(app.providerErrors).toEqual([]);
  });

  it("refuses any other provider error, and reports it", async () => {
    const browser = new Browser();
    const { authorizationUrl } = await app.start(browser);
    const state = new URL(authorizationUrl).searchParams.get("state")!;
    const query = new URLSearchParams({ error: "temporarily_unavailable", state });
    await expectRefusal(
      browser,
      `${app.origin}/auth/testidp/callback?${query}`,
      "Test IdP could not sign you in. Please try again.",
    );
    expect(app.providerErrors).toEqual([
      'testidp: the provider answered error="temporarily_unavailable"',
    ]);
  });

  it("refuses a code the provider does not accept, and reports why", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    const badCode = withQuery(callbackUrl, (query) => query.set("code", "not-a-real-code"));
    await expectRefusal(browser, badCode, "Signing in with Test IdP failed. Please try again.");
    expect(app.providerErrors).toEqual([
      "testidp: server responded with an error in the response body",
    ]);
  });

  it("refuses a code issued to another flow: PKCE binds it to the verifier in this session", async () => {
    // Code injection: a code obtained elsewhere, delivered with this session's valid state.
    const browser = new Browser();
    const injectedUrl = await app.callbackUrl(browser, "ada-sub");
    const { authorizationUrl } = await app.start(browser);
    const state = new URL(authorizationUrl).searchParams.get("state")!;
    const injected = withQuery(injectedUrl, (query) => query.set("state", state));
    await expectRefusal(browser, injected, "Signing in with Test IdP failed. Please try again.");
    expect(app.outbound).toContain("POST /token");
  });

  it("refuses a callback whose iss names another issuer (mix-up defense, RFC 9207)", async () => {
    const browser = new Browser();
    const callbackUrl = await app.callbackUrl(browser, "ada-sub");
    const mixedUp = withQuery(callbackUrl, (query) => query.set("iss", "https://evil.example"));
    await expectRefusal(browser, mixedUp, "Signing in with Test IdP failed. Please try again.");
    expect(app.outbound).not.toContain("POST /token");
  });

  it("refuses an unverified email that matches an existing account, changing nothing", async () => {
    await existingUser("ada@example.com", false);
    app.provider.accounts.set("ada-sub", { email: "ada@example.com", email_verified: false });
    const browser = new Browser();
    await expectRefusal(
      browser,
      await app.callbackUrl(browser, "ada-sub"),
      "Your Test IdP email address is not verified, so it cannot be used to sign in. Verify it at Test IdP, then try again.",
    );
    expect((await app.userRows())[0]?.password_digest).toBe(PASSWORD_DIGEST);
  });

  it("refuses an unverified email of nobody here, creating nothing", async () => {
    app.provider.accounts.set("eve-sub", { email: "eve@example.com", email_verified: false });
    const browser = new Browser();
    await expectRefusal(
      browser,
      await app.callbackUrl(browser, "eve-sub"),
      "Your Test IdP email address is not verified, so it cannot be used to sign in. Verify it at Test IdP, then try again.",
    );
    expect(await app.userRows()).toEqual([]);
  });

  it("refuses a provider account that shares no email address", async () => {
    app.provider.accounts.set("anonymous-sub", {});
    const browser = new Browser();
    await expectRefusal(
      browser,
      await app.callbackUrl(browser, "anonymous-sub"),
      "Test IdP did not share your email address, so you cannot sign in with it.",
    );
  });

  it("refuses a subject or an email holding a NUL, which PostgreSQL could not store", async () => {
    app.provider.accounts.set("nul\u0000sub", { email: "nul@example.com", email_verified: true });
    const browser = new Browser();
    await expectRefusal(
      browser,
      await app.callbackUrl(browser, "nul\u0000sub"),
      "Signing in with Test IdP failed. Please try again.",
    );
    expect(app.providerErrors).toEqual([
      "testidp: the provider's subject is unusable text: NUL character in string",
    ]);
    // An address holding a NUL is no valid address: as if none was shared.
    app.provider.accounts.set("eve-sub", { email: "eve\u0000@example.com", email_verified: true });
    const second = new Browser();
    await expectRefusal(
      second,
      await app.callbackUrl(second, "eve-sub"),
      "Test IdP did not share your email address, so you cannot sign in with it.",
    );
  });
});
