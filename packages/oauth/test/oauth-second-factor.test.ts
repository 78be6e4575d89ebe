import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { totpCode, type User } from "@tessera/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
// The enrolment steps the security page runs, called directly: these tests are about sign-in.
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
} from "../../accounts/src/second-factor/totp-enrolment.js";
import { Browser } from "./browser.js";
import { type OAuthTestApp, startOAuthTestApp, T0 } from "./oauth-test-app.js";

const PASSWORD_DIGEST = `pbkdf2_sha256$100000$${"A".repeat(22)}$${"B".repeat(43)}`;

let app: OAuthTestApp;
beforeAll(async () => {
  app = await startOAuthTestApp();
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  app.provider.accounts.set("ada-sub", { email: "ada@example.com", email_verified: true });
});

/** Ada's account, with a password, and TOTP turned on: her authenticator's key and codes. */
async function adaWithTotp(confirmed: boolean) {
  const at = Date.UTC(2024, 5, 1, 10);
  const created = await app.users.create(
    {
      email: "ada@example.com",
      passwordDigest: PASSWORD_DIGEST,
      confirmedAt: confirmed ? at : null,
    },
    at,
  );
  if (!created.ok) throw new Error("the email is free");
  const user: User = created.value;
  const setup = await beginTotpEnrolment(app.factors, user);
  if (!setup.ok) throw new Error("TOTP was already on");
  const key = decodeBase32IgnorePadding(setup.value.secret);
  // The code of the step before the app's clock: the sign-in's code is then a new one.
  const confirmedTotp = await confirmTotpEnrolment(
    app.factors,
    user.id,
    totpCode(key, T0 - 30_000),
  );
  if (!confirmedTotp.ok) throw new Error("the code was refused");
  return { user, key };
}

/** The second step's page answered with `code`, in `browser`. */
function answerSecondFactor(browser: Browser, code: string) {
  return browser.request(`${app.origin}/login/second_factor`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.origin },
    body: new URLSearchParams({ code }),
  });
}

describe("a provider sign-in of a user with a second factor", () => {
  it("asks for it, and links the provider account only once it was given", async () => {
    const { user, key } = await adaWithTotp(true);
    const browser = new Browser();
    const callback = await browser.request(await app.callbackUrl(browser, "ada-sub"));
    expect(callback.status).toBe(303);
    expect(callback.headers.get("location")).toBe("/login/second_factor");
    // Nobody is signed in, and the provider account is not linked yet.
    expect(await app.deviceUserIds()).toEqual([]);
    expect(await app.identityRows()).toEqual([]);
    expect((await browser.request(`${app.origin}/private`)).status).toBe(303);

    const wrong = await answerSecondFactor(browser, "000000");
    expect(wrong.status).toBe(422);
    expect(await app.identityRows()).toEqual([]);

    const done = await answerSecondFactor(browser, totpCode(key, T0));
    expect(done.status).toBe(303);
    expect(await app.deviceUserIds()).toEqual([user.id]);
    expect(await app.deviceFactors()).toEqual(["oauth,totp"]);
    expect(await app.identityRows()).toEqual([
      { user_id: user.id, provider: "testidp", subject: "ada-sub", email: "ada@example.com" },
    ]);
    expect(app.announced).toEqual([["onSignIn", "oauth", user.id]]);
  });

  it("asks for it when the provider account is linked already", async () => {
    const { user } = await adaWithTotp(true);
    await app.database.run(
      "INSERT INTO identities (user_id, provider, subject, email, created_at, updated_at) VALUES (?, 'testidp', 'ada-sub', 'ada@example.com', '2024-06-01 10:00:00', '2024-06-01 10:00:00')",
      [user.id],
    );
    const browser = new Browser();
    const callback = await browser.request(await app.callbackUrl(browser, "ada-sub"));
    expect(callback.headers.get("location")).toBe("/login/second_factor");
    expect(await app.deviceUserIds()).toEqual([]);
  });

  it("of an account never confirmed: the provider proves the address, and the factors its unproven owner set go", async () => {
    const { user } = await adaWithTotp(false);
    const browser = new Browser();
    const outcome = await app.finish(browser, await app.callbackUrl(browser, "ada-sub"));
    expect(outcome.location).toBe("/");
    expect(await app.deviceUserIds()).toEqual([user.id]);
    expect(await app.database.all("SELECT user_id FROM user_totp")).toEqual([]);
    expect(await app.database.all("SELECT user_id FROM user_backup_codes")).toEqual([]);
    const [row] = await app.userRows();
    expect(row).toMatchObject({ id: user.id, password_digest: "" });
    expect(row?.confirmed_at).not.toBeNull();
  });
});
